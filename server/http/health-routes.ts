import { sendJson } from "./json";
import type { Route } from "./route";

export const healthRoutes: Route[] = [
  { method: "GET", path: /^\/healthz$/, guard: "public", run: async ({ res }) => sendJson(res, 200, { ok: true }) },
  {
    method: "GET",
    path: /^\/readyz$/,
    guard: "public",
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
