import { sendJson } from "./json";
import type { Route } from "./route";

export const healthRoutes: Route[] = [
  {
    method: "GET",
    path: /^\/healthz$/,
    guard: "public",
    run: async ({ res }) => sendJson(res, 200, { ok: true }),
  },
  {
    method: "GET",
    path: /^\/readyz$/,
    guard: "public",
    // Ready: the database answers and the bus hears every node's commits (a node deaf to them would serve stale live views).
    run: async ({ app, res }) => {
      // First: a draining node is healthy but must get no new work, whatever else holds.
      if (app.drain.draining)
        return sendJson(res, 503, {
          ok: false,
          error: { code: "draining", message: "this node is shutting down; use another" },
        });
      try {
        await app.store.ping();
      } catch {
        return sendJson(res, 503, {
          ok: false,
          error: { code: "database_unavailable", message: "database is not reachable or not migrated" },
        });
      }
      const bus = app.bus.health();
      if (!bus.ok)
        return sendJson(res, 503, {
          ok: false,
          error: { code: "bus_unavailable", message: bus.detail ?? "the bus is not listening" },
        });
      sendJson(res, 200, { ok: true, database: app.store.kind, bus: app.bus.kind, node: app.config.nodeId });
    },
  },
];
