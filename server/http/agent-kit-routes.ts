// GET/HEAD /agent/podwatch.tgz and GET /agent/podwatch-{version}.tgz: the agent kit's tarball
// (server/agent-kit/), from memory once built, answered 304 to a client that has these bytes.
import { AppError } from "../domain/errors";
import { servedAgentKit } from "../agent-kit/served-agent-kit";
import type { Route, RouteContext } from "./route";

export const AGENT_KIT_PREFIX = "/agent/";

async function sendKit({ req, res }: RouteContext, version?: string) {
  const kit = await servedAgentKit();
  if (version !== undefined && version !== kit.version)
    throw new AppError(404, "not_found", `this server serves agent kit ${kit.version} only, not ${version}`);
  res.setHeader("ETag", kit.etag);
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("X-Podwatch-Kit-Version", kit.version);
  if (req.headers["if-none-match"]?.split(/\s*,\s*/).includes(kit.etag)) return void res.writeHead(304).end();
  res.writeHead(200, {
    "Content-Type": "application/gzip",
    "Content-Length": kit.bytes.length,
    "Content-Disposition": `attachment; filename="podwatch-${kit.version}.tgz"`,
  });
  res.end(req.method === "HEAD" ? undefined : kit.bytes);
}

export const agentKitRoutes: Route[] = [
  { method: "GET", path: /^\/agent\/podwatch\.tgz$/, guard: "public", run: (c) => sendKit(c) },
  { method: "HEAD", path: /^\/agent\/podwatch\.tgz$/, guard: "public", run: (c) => sendKit(c) },
  {
    method: "GET",
    path: /^\/agent\/podwatch-([^/]+)\.tgz$/,
    guard: "public",
    run: (c) => sendKit(c, c.params[0]),
  },
];
