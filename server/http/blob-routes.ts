// PUT/HEAD/GET /api/v1/blobs/{sha256}: content-addressed files for evidence.
// Agents (and admin automation) upload. Reading (HEAD, GET, verify) goes through
// a pod the caller may read whose evidence names the blob (?pod=, implied for an
// agent token or a share link); a site admin may read any blob. Whatever is not
// readable is "not found", so a blob's existence never leaks to other pods.
import { pipeline } from "node:stream/promises";
import { runVerification } from "./verification";
import { AppError } from "../domain/errors";
import { SHA256_HEX } from "../domain/events/event-schemas";
import { isSiteAdmin, podAccess } from "../domain/access/policy";
import { podReferencesBlob } from "../blobs/pod-references-blob";
import { verifyBlob } from "../blobs/blob-store";
import { UploadsBusy } from "../blobs/upload-slots";
import type { BlobCheck, BlobStored } from "../wire/blobs";
import { sendJson } from "./json";
import type { Route, RouteContext } from "./route";

function sha(c: RouteContext): string {
  const s = c.params[0]!.toLowerCase();
  if (!SHA256_HEX.test(s))
    throw new AppError(400, "invalid_request", "the blob name must be a lowercase hex SHA-256", [
      { path: "sha256", message: "64 hex characters" },
    ]);
  return s;
}

const canUpload = (c: RouteContext) => c.identity.kind === "agent" || c.identity.kind === "admin-token";
const notFound = () =>
  new AppError(404, "not_found", "no blob with that SHA-256 has been uploaded to this pod");

/** The blob's name, once the caller has shown a way to read it (else 404, as for a missing blob). */
async function readable(c: RouteContext): Promise<string> {
  const name = sha(c);
  const id = c.identity;
  const podId =
    c.url.searchParams.get("pod") ?? (id.kind === "agent" || id.kind === "share" ? id.podId : null);
  if (podId === null) {
    if (isSiteAdmin(id)) return name;
    throw new AppError(
      400,
      "invalid_request",
      "reading a blob goes through a pod you may read: add ?pod=<podId>",
      [{ path: "pod", message: "required" }],
    );
  }
  const state = await c.app.store.readState(podId);
  if (
    !state ||
    podAccess(id, podId, state) === "none" ||
    !(await podReferencesBlob(c.app.store, podId, name))
  )
    throw notFound();
  return name;
}

export const blobRoutes: Route[] = [
  {
    method: "PUT",
    path: /^\/api\/v1\/blobs\/([^/]+)$/,
    guard: "authenticated",
    run: async (c) => {
      if (!canUpload(c)) throw new AppError(403, "forbidden", "uploading blobs needs an agent token");
      const declaredLength = c.req.headers["content-length"]
        ? Number(c.req.headers["content-length"])
        : undefined;
      const id = c.identity;
      const caller =
        id.kind === "agent"
          ? `token:${id.tokenId}`
          : id.kind === "admin-token"
            ? `admin:${id.label}`
            : "other";
      // A client gone mid-upload has stored nothing (the store rolled back) and has nobody to answer.
      const stored = await c.app.blobs.put(sha(c), c.req, { declaredLength, caller }).catch((e: unknown) => {
        if (c.req.destroyed && !c.req.complete) return null;
        if (e instanceof UploadsBusy) c.res.setHeader("retry-after", String(e.retryAfterSeconds));
        // The rest of a body we stopped reading is not worth waiting for: answer, then close.
        if (e instanceof AppError && (e.status === 408 || e.status === 503))
          c.res.setHeader("connection", "close");
        return Promise.reject(e);
      });
      if (!stored) return void c.res.destroy();
      const { size, created } = stored;
      sendJson(c.res, created ? 201 : 200, { sha256: sha(c), size, created } satisfies BlobStored);
    },
  },
  {
    method: "HEAD",
    path: /^\/api\/v1\/blobs\/([^/]+)$/,
    guard: "authenticated",
    run: async (c) => {
      const s = await c.app.blobs.stat(await readable(c));
      c.res
        .writeHead(
          s ? 200 : 404,
          s ? { "content-length": s.size, "content-type": "application/octet-stream" } : {},
        )
        .end();
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/blobs\/([^/]+)\/verify$/,
    guard: "authenticated",
    run: async (c) => {
      const name = await readable(c);
      const r = await runVerification(c, () => verifyBlob(c.app.blobs, name));
      if (!r) throw notFound();
      sendJson(c.res, 200, { sha256: name, ...r } satisfies BlobCheck);
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/blobs\/([^/]+)$/,
    guard: "authenticated",
    run: async (c) => {
      const name = await readable(c);
      const s = await c.app.blobs.stat(name);
      if (!s) throw notFound();
      // Safe to download, never rendered by the browser as a page.
      c.res.writeHead(200, {
        "content-type": "application/octet-stream",
        "content-length": s.size,
        "content-disposition": `attachment; filename="${name}"`,
        "x-content-type-options": "nosniff",
        "cache-control": "private, max-age=31536000, immutable",
      });
      // A store that fails mid-stream (a file gone, the database away) cuts the response: the
      // client sees fewer bytes than content-length, never a truncated blob taken for whole.
      await pipeline(c.app.blobs.open(name), c.res).catch(() => c.res.destroy());
    },
  },
];
