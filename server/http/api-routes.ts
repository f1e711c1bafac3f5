// The agent API v1, served by the custom server itself (not Next): each route
// says who may call it; the request is authenticated, rate limited and
// guarded here, then a thin adapter parses with zod and calls one use-case.
import type { PodState } from "../domain/state/pod-state";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import {
  requireAuthenticated,
  requirePerson,
  requireAgent,
  requireCreatePods,
  requirePodAccess,
  requireSiteAdmin,
  type Identity,
  type Verdict,
} from "../domain/access/policy";
import { resolveIdentity } from "../access/resolve-identity";
import { authNodeHandler, CLIENT_IP_HEADER } from "../access/create-auth";
import { countFailedAuth, takeRequest } from "./rate-limits";
import { sendError } from "./json";
import { AUTH_MAX_BODY_BYTES, holdBody } from "./body-limit";
import { badPath, decodeSegment, RequestTarget } from "./request-url";
import { tapeRoutes } from "./tape-routes";
import { healthRoutes } from "./health-routes";
import { blobRoutes } from "./blob-routes";
import { operationRoutes } from "./operation-routes";
import { hookRoutes } from "./hook-routes";
import { AGENT_KIT_PREFIX, agentKitRoutes } from "./agent-kit-routes";
import { codexHookRoutes } from "./codex-hook-routes";
import { geminiHookRoutes } from "./gemini-hook-routes";
import { openShareLink } from "./share-route";
import { OTLP_PATHS, otlpRoutes, sendOtlpError } from "./otlp-routes";
import type { Guard, Route } from "./route";

/** Every route of the API server, in the order they are matched. */
export const routes: Route[] = [
  ...tapeRoutes,
  ...hookRoutes,
  ...codexHookRoutes,
  ...geminiHookRoutes,
  ...blobRoutes,
  ...otlpRoutes,
  ...healthRoutes,
  ...agentKitRoutes,
  ...operationRoutes,
];
const GENERIC_401 = new AppError(401, "unauthenticated", "authentication required");

const only = (verdict: Verdict) => ({ verdict, podState: null });
const ALLOWED = only({ ok: true });

/** The verdict, and for a `{ pod }` guard the pod's state it read (handed to the route, not read twice). */
async function guardVerdict(
  app: AppContext,
  guard: Guard,
  identity: Identity,
  podId: string | undefined,
): Promise<{ verdict: Verdict; podState: PodState | null }> {
  if (guard === "public") return ALLOWED;
  if (guard === "authenticated") return only(requireAuthenticated(identity));
  if (guard === "person") return only(requirePerson(identity));
  if (guard === "site-admin") return only(requireSiteAdmin(identity));
  if (guard === "pod-creator") return only(requireCreatePods(identity));
  if (guard === "agent") return only(requireAgent(identity));
  if (identity.kind === "anonymous") return only(requireAuthenticated(identity));
  if (guard === "append") {
    // The hot path: decided by the credential alone; the append itself answers 404 for an unknown pod.
    if (identity.kind === "admin-token" || (identity.kind === "agent" && identity.podId === podId))
      return ALLOWED;
    // Refused either way; the lookup only says why. A pod's existence is no secret from a signed-in
    // caller (reads answer 404 vs 403 alike), and a token is only ever told its own pod.
    if (!(await app.store.readState(podId!))) throw new AppError(404, "not_found", "pod not found");
    if (identity.kind === "agent")
      return only({
        ok: false,
        status: 403,
        code: "wrong_pod",
        message: `this token belongs to pod ${identity.podId}; it cannot append to another pod`,
      });
    return only({
      ok: false,
      status: 403,
      code: "forbidden",
      message:
        identity.kind === "share"
          ? "a share link only reads; appending needs an agent token of this pod"
          : "appending needs an agent token of this pod (people act from the control room)",
    });
  }
  const podState = await app.store.readState(podId!);
  if (!podState) throw new AppError(404, "not_found", "pod not found");
  if (guard.agents && identity.kind === "agent" && identity.podId === podId)
    return { verdict: { ok: true }, podState };
  return { verdict: requirePodAccess(identity, podId!, podState, guard.pod), podState };
}

/** The first route of its method whose path matches (routes are tried in order); 405 or 404 when none. */
function findRoute(method: string | undefined, pathname: string): { route: Route; match: RegExpExecArray } {
  for (const route of routes) {
    const match = route.method === method ? route.path.exec(pathname) : null;
    if (match) return { route, match };
  }
  throw routes.some((r) => r.path.test(pathname))
    ? new AppError(405, "method_not_allowed", `${method} is not allowed on ${pathname}`)
    : new AppError(404, "not_found", `no API route ${pathname}`);
}

async function serve(
  app: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
  ip: string,
) {
  const { route, match } = findRoute(req.method, target.pathname);
  const params = match.slice(1).map(decodeSegment);
  const known: { identity: Identity } = { identity: { kind: "anonymous" } };
  try {
    await serveRoute(app, req, res, target, ip, route, params, known);
  } catch (e) {
    if (!route.failed) throw e;
    const identity = known.identity;
    await route.failed(
      {
        app,
        req,
        res,
        identity,
        get url() {
          return target.url;
        },
      },
      e,
    );
  }
}

async function serveRoute(
  app: AppContext,
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
  ip: string,
  route: Route,
  params: string[],
  known: { identity: Identity },
) {
  let identity: Identity = { kind: "anonymous" };
  if (route.guard !== "public") {
    const resolved = await resolveIdentity(app.access, req.headers);
    if (resolved === "invalid") {
      // Count failures per IP so a token cannot be guessed; say nothing about why. A valid
      // credential is never refused for its IP's failures (one guesser would lock out a whole NAT).
      await countFailedAuth(app, ip, res);
      throw GENERIC_401;
    }
    identity = known.identity = resolved;
    // Cookies ride along on cross-site requests; a person's writes must come from our own pages.
    if (
      identity.kind === "user" &&
      req.method !== "GET" &&
      req.method !== "HEAD" &&
      !app.config.trustedOrigins.includes(String(req.headers.origin ?? ""))
    ) {
      throw new AppError(
        403,
        "bad_origin",
        "cookie-authenticated writes must come from podwatch's own origin",
      );
    }
  }
  const key = identity.kind === "agent" ? `token:${identity.tokenId}` : `ip:${ip}`;
  await takeRequest(app, key, res);
  const { verdict, podState } = await guardVerdict(app, route.guard, identity, params[0]);
  if (!verdict.ok) throw new AppError(verdict.status, verdict.code, verdict.message);
  // The URL is parsed only for a route that reads it (the query): the append route does not.
  await route.run({
    app,
    req,
    res,
    params,
    identity,
    podState,
    get url() {
      return target.url;
    },
  });
}

/** Serves the request if it is ours (agent API, auth, share links, health); returns false to hand it to Next. */
export function handleApi(app: AppContext, req: IncomingMessage, res: ServerResponse): boolean {
  const target = RequestTarget.of(req);
  if (!target) return (sendError(res, badPath()), true);
  // Set on every request, whatever the client sent: Better Auth keys its throttle and sessions on it,
  // also when a page or server action calls it with this request's headers.
  const ip = app.access.clientIp(req);
  const pathname = target.pathname;
  req.headers[CLIENT_IP_HEADER] = ip;
  if (pathname.startsWith("/api/auth/")) {
    // Reachable by anyone: Better Auth reads a body only once it is all in, within a small cap.
    holdBody(
      req,
      res,
      AUTH_MAX_BODY_BYTES,
      () =>
        void (app.authHandler ??= authNodeHandler(app.access.auth))(req, res).catch((e) => sendError(res, e)),
    );
    return true;
  }
  if (pathname.startsWith("/share/")) {
    openShareLink(app, target.url, res).catch((e) => sendError(res, e));
    return true;
  }
  // OTLP/HTTP's paths are its own (/v1/traces, /v1/logs, /v1/metrics, where every exporter sends by default); so are its error bodies.
  if (OTLP_PATHS.has(pathname))
    return (serve(app, req, res, target, ip).catch((e) => sendOtlpError(req, res, e)), true);
  const ours =
    pathname.startsWith("/api/v1/") ||
    pathname.startsWith(AGENT_KIT_PREFIX) ||
    pathname === "/healthz" ||
    pathname === "/readyz";
  if (!ours) return false;
  serve(app, req, res, target, ip).catch((e) => sendError(res, e));
  return true;
}
