// Pods' tapes: appending and reading events (the pods themselves and the inbox: server/pods/pod-operations.ts,
// inbox-operations.ts; verifying the chain: server/tape/tape-operations.ts).
import { asSeenBy, matchingText, onlookerSearch } from "../pods/onlooker-view";
import { readEventsPage } from "../tape/read-events-page";
import { ZEventInput, type AppendResponse, type TEvent } from "../wire/events";
import { ZReadEventsQuery } from "../wire/pods";
import { parseWith, readJsonBody, sendJson } from "./json";
import { parseEventBatch } from "./parse-event-batch";
import type { Route, RouteContext } from "./route";

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
    run: async ({ app, req, res, params, url, identity, podState }) => {
      const asked = parseWith(ZReadEventsQuery, Object.fromEntries(url.searchParams), "query");
      // The `{ pod }` guard read the share link's own pod.
      const search =
        identity.kind === "share" && podState
          ? onlookerSearch(podState, asked)
          : { query: asked, text: null };
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
        const page = await readEventsPage(app, params[0]!, search.query, ended.signal);
        // A share link's onlooker reads the events with the pod's people named, never by email.
        // After a long-poll, the names as they are now (someone may have joined while it waited).
        const seen = await asSeenBy(app.store, identity, page, search.query.wait ? null : podState);
        if (!res.destroyed) sendJson(res, 200, search.text ? matchingText(seen, search.text) : seen);
      } finally {
        app.drain.signal.removeEventListener("abort", end);
      }
    },
  },
];
