// /share/<token>: a read-only link. Sets an HttpOnly cookie and opens the pod.
import type { ServerResponse } from "node:http";
import type { AppContext } from "../app-context";
import { SHARE_COOKIE } from "../access/resolve-identity";
import { verifyShareToken } from "../access/share-links";

export async function openShareLink(app: AppContext, url: URL, res: ServerResponse) {
  const token = decodeURIComponent(url.pathname.slice("/share/".length));
  const link = await verifyShareToken(app.store, token);
  if (!link) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    return void res.end("This share link has expired or was revoked. Ask the pod's admin for a new one.");
  }
  const secure = app.config.publicUrl.startsWith("https://") ? "; Secure" : "";
  res.writeHead(303, {
    "set-cookie": `${SHARE_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${60 * 60 * 24 * 90}${secure}`,
    location: `/pods/${link.podId}`,
  });
  res.end();
}
