// The agent API v1, served by the custom server itself (not Next): thin
// adapters that parse with zod, call one use-case and map errors.
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { createPod } from "../pods/create-pod";
import { getPod, listPods } from "../pods/read-pods";
import { readEvents } from "../tape/read-events";
import { verifyChain } from "../tape/verify-chain";
import { ZEventInput, MAX_EVENTS_PER_REQUEST } from "../wire/events";
import { ZCreatePodRequest, ZReadEventsQuery } from "../wire/pods";
import { parseWith, readJsonBody, sendError, sendJson } from "./json";
import { protocolRoutes } from "./protocol-routes";
import type { Route } from "./route";


const ZBatch = z.object({ events: z.array(ZEventInput).min(1).max(MAX_EVENTS_PER_REQUEST) });
const ZPodId = z.string().min(1).max(100);

const tapeRoutes: Route[] = [
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/events$/,
    run: async ({ app, req, res, params }) => {
      const podId = parseWith(ZPodId, params[0], "pod id");
      const body = await readJsonBody(req);
      const isBatch = typeof body === "object" && body !== null && "events" in body;
      const events = isBatch ? parseWith(ZBatch, body).events : [parseWith(ZEventInput, body, "event")];
      const acks = await app.append(podId, events);
      sendJson(res, 201, { events: acks });
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)\/events$/,
    run: async ({ app, res, params, url }) => {
      const q = parseWith(ZReadEventsQuery, Object.fromEntries(url.searchParams), "query");
      const events = await readEvents(app.store, params[0]!, q.after, q.limit);
      sendJson(res, 200, { events, nextAfter: events.at(-1)?.seq ?? q.after });
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)\/verify$/,
    run: async ({ app, res, params }) => sendJson(res, 200, await verifyChain(app.store, params[0]!)),
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)$/,
    run: async ({ app, res, params }) => sendJson(res, 200, await getPod(app.store, params[0]!)),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods$/,
    run: async ({ app, req, res }) => {
      const input = parseWith(ZCreatePodRequest, await readJsonBody(req));
      sendJson(res, 201, await createPod(app.store, app.bus, input));
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods$/,
    run: async ({ app, res }) => sendJson(res, 200, { pods: await listPods(app.store) }),
  },
  { method: "GET", path: /^\/healthz$/, run: async ({ res }) => sendJson(res, 200, { ok: true }) },
  {
    method: "GET",
    path: /^\/readyz$/,
    run: async ({ app, res }) => {
      try {
        await app.store.ping();
        sendJson(res, 200, { ok: true, database: app.store.kind });
      } catch {
        sendJson(res, 503, { ok: false, error: { code: "database_unavailable", message: "database is not reachable or not migrated" } });
      }
    },
  },
];

const routes = [...tapeRoutes, ...protocolRoutes];

/** Serves the request if it is an API route; returns false to hand it to Next. */
export function handleApi(app: AppContext, req: IncomingMessage, res: ServerResponse): boolean {
  const url = new URL(req.url ?? "/", "http://localhost");
  const isApi = url.pathname.startsWith("/api/v1/") || url.pathname === "/healthz" || url.pathname === "/readyz";
  if (!isApi) return false;
  const matching = routes.filter((r) => r.path.test(url.pathname));
  const route = matching.find((r) => r.method === req.method);
  if (!route) {
    const err = matching.length
      ? new AppError(405, "method_not_allowed", `${req.method} is not allowed on ${url.pathname}`)
      : new AppError(404, "not_found", `no API route ${url.pathname}`);
    sendError(res, err);
    return true;
  }
  const params = route.path.exec(url.pathname)!.slice(1).map(decodeURIComponent);
  route.run({ app, req, res, params, url }).catch((e) => sendError(res, e));
  return true;
}
