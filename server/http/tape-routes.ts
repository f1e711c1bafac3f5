// Pods and their tapes.
import { createPod } from "../pods/create-pod";
import { podCreator } from "../pods/pod-creator";
import { setPodArchived } from "../pods/archive-pod";
import { CADENCE_MINUTES } from "../domain/events/event-schemas";
import { getPod } from "../pods/read-pods";
import { cadenceAdherence } from "../domain/state/cadence";
import { visiblePods } from "../pods/visible-pods";
import { readInbox } from "../pods/read-inbox";
import { readEventsPage } from "../tape/read-events-page";
import { ZEventInput, type AppendResponse, type TEvent } from "../wire/events";
import {
  ZCreatePodRequest,
  ZInboxQuery,
  ZListPodsQuery,
  ZReadEventsQuery,
  type PodOverview,
  type PodsResponse,
} from "../wire/pods";
import type { InboxResponse } from "../wire/views";
import { parseWith, readJsonBody, sendJson } from "./json";
import { parseEventBatch } from "./parse-event-batch";
import { adminActor, type Route, type RouteContext } from "./route";
import { dismissNoticeEvent } from "../pods/dismiss-notice";
import { ZDismissNoticeInput } from "../wire/actions";
import { describeIdentity } from "../wire/whoami";

/** Appends to the route's pod as the caller; the write path decides what the caller may append. */
export const appendAs = (c: RouteContext, events: TEvent[]) => c.app.append(c.params[0]!, events, c.identity);

export const tapeRoutes: Route[] = [
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/events$/,
    guard: "append",
    run: async (c) => {
      const body = await readJsonBody(c.req);
      const isBatch = typeof body === "object" && body !== null && "events" in body;
      const events = isBatch ? await parseEventBatch(body) : [parseWith(ZEventInput, body, "event")];
      sendJson(c.res, 201, { events: await appendAs(c, events) } satisfies AppendResponse);
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)\/events$/,
    guard: { pod: "viewer" },
    run: async ({ app, req, res, params, url }) => {
      const q = parseWith(ZReadEventsQuery, Object.fromEntries(url.searchParams), "query");
      // A long-poll ends early when its caller hangs up (also if that happened while we authenticated),
      // and when the node drains: it answers at once with what it has; the agent asks again, elsewhere.
      // A listener removed in `finally`, not AbortSignal.any: on Node 20 each of those stays tied to
      // the drain's signal, which lives as long as the process.
      const ended = new AbortController();
      const end = () => ended.abort();
      res.on("close", end);
      app.drain.signal.addEventListener("abort", end, { once: true });
      if (req.destroyed || res.destroyed || app.drain.draining) end();
      try {
        const page = await readEventsPage(app, params[0]!, q, ended.signal);
        if (!res.destroyed) sendJson(res, 200, page);
      } finally {
        app.drain.signal.removeEventListener("abort", end);
      }
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)$/,
    guard: { pod: "viewer" },
    run: async ({ app, res, params }) => sendJson(res, 200, await getPod(app.store, params[0]!)),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods$/,
    guard: "pod-creator",
    run: async ({ app, req, res, identity }) => {
      const input = parseWith(ZCreatePodRequest, await readJsonBody(req));
      sendJson(res, 201, await createPod(app.store, app.bus, app.append, input, podCreator(identity)));
    },
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/(archive|unarchive)$/,
    guard: { pod: "admin" },
    run: async ({ app, res, params }) =>
      sendJson(res, 200, await setPodArchived(app.store, params[0]!, params[1] === "archive")),
  },
  {
    method: "GET",
    path: /^\/api\/v1\/me$/,
    guard: "authenticated",
    run: async ({ res, identity }) =>
      sendJson(res, 200, describeIdentity(identity as Exclude<typeof identity, { kind: "anonymous" }>)),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/notices\/([^/]+)\/dismiss$/,
    guard: { pod: "admin" },
    run: async ({ app, res, params, identity }) => {
      const { podId, noticeId } = parseWith(
        ZDismissNoticeInput,
        { podId: params[0], noticeId: params[1] },
        "path",
      );
      const [event] = await app.append(podId, [dismissNoticeEvent(noticeId, adminActor(identity))], identity);
      sendJson(res, 201, { event });
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/inbox$/,
    guard: "authenticated",
    run: async ({ app, res, identity, url }) => {
      const { podId } = parseWith(ZInboxQuery, Object.fromEntries(url.searchParams), "query");
      sendJson(res, 200, { items: await readInbox(app.store, identity, podId) } satisfies InboxResponse);
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods$/,
    guard: "authenticated",
    run: async ({ app, res, identity, url }) => {
      const archived =
        parseWith(ZListPodsQuery, Object.fromEntries(url.searchParams), "query").archived === "1";
      const visible: PodOverview[] = [];
      for (const { pod: p, state, access } of await visiblePods(app.store, identity)) {
        if (!!p.archivedAt !== archived) continue;
        const overview = {
          status: state.status,
          activeAgent: state.activeAgent,
          inboxCount: Object.keys(state.inbox).length,
          lastCheckpointAt: state.lastCheckpoint?.at ?? null,
        };
        visible.push({
          ...p,
          ...overview,
          cadenceMinutes: state.scope?.cadenceMinutes ?? CADENCE_MINUTES.default,
          cadence: cadenceAdherence(state),
          access,
        });
      }
      sendJson(res, 200, { pods: visible } satisfies PodsResponse);
    },
  },
];
