// PUT/HEAD/GET /api/v1/blobs/{sha256}: content-addressed files for evidence.
// Agents (and admin automation) upload; anyone signed in may read or verify.
import { AppError } from "../domain/errors";
import { SHA256_HEX } from "../domain/events/event-schemas";
import { sendJson } from "./json";
import type { Route, RouteContext } from "./route";

function sha(c: RouteContext): string {
  const s = c.params[0]!.toLowerCase();
  if (!SHA256_HEX.test(s)) throw new AppError(400, "invalid_request", "the blob name must be a lowercase hex SHA-256", [{ path: "sha256", message: "64 hex characters" }]);
  return s;
}

const canUpload = (c: RouteContext) => c.identity.kind === "agent" || c.identity.kind === "admin-token";

export const blobRoutes: Route[] = [
  {
    method: "PUT",
    path: /^\/api\/v1\/blobs\/([^/]+)$/,
    guard: "authenticated",
    run: async (c) => {
      if (!canUpload(c)) throw new AppError(403, "forbidden", "uploading blobs needs an agent token");
      const length = c.req.headers["content-length"] ? Number(c.req.headers["content-length"]) : undefined;
      const { size, created } = await c.app.blobs.put(sha(c), c.req, length);
      sendJson(c.res, created ? 201 : 200, { sha256: sha(c), size, created });
    },
  },
  {
    method: "HEAD",
    path: /^\/api\/v1\/blobs\/([^/]+)$/,
    guard: "authenticated",
    run: async (c) => {
      const s = c.app.blobs.stat(sha(c));
      c.res.writeHead(s ? 200 : 404, s ? { "content-length": s.size, "content-type": "application/octet-stream" } : {}).end();
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/blobs\/([^/]+)\/verify$/,
    guard: "authenticated",
    run: async (c) => {
      const r = await c.app.blobs.verify(sha(c));
      if (!r) throw new AppError(404, "not_found", "no blob with that SHA-256 has been uploaded");
      sendJson(c.res, 200, { sha256: sha(c), ...r });
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/blobs\/([^/]+)$/,
    guard: "authenticated",
    run: async (c) => {
      const name = sha(c);
      const s = c.app.blobs.stat(name);
      if (!s) throw new AppError(404, "not_found", "no blob with that SHA-256 has been uploaded");
      // Safe to download, never rendered by the browser as a page.
      c.res.writeHead(200, {
        "content-type": "application/octet-stream",
        "content-length": s.size,
        "content-disposition": `attachment; filename="${name}"`,
        "x-content-type-options": "nosniff",
        "cache-control": "private, max-age=31536000, immutable",
      });
      c.app.blobs.open(name).pipe(c.res);
    },
  },
];
