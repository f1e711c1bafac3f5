// `/mcp`: podwatch's MCP server over Streamable HTTP, for an agent on another
// machine that has nothing of ours installed. Every request (not only the
// initialize) carries the agent token as a bearer and is judged here, before the
// MCP SDK's transport sees it: the Origin (DNS rebinding), the token, the rate
// limit, the session's owner, the body's size, depth and batch length.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppContext } from "../app-context";
import { resolveIdentity } from "../access/resolve-identity";
import { tokenStillValid } from "../access/token-still-valid";
import { AppError } from "../domain/errors";
import { sendError } from "./json";
import { countFailedAuth, takeRequest } from "./rate-limits";
import { McpSessions, MCP_LIMITS, type McpLimits } from "../mcp/mcp-sessions";
import type { McpSession, Owner } from "../mcp/open-mcp-session";
import { readMcpBody } from "../mcp/read-mcp-body";
import { cancelIfNotResumed, requestIds } from "../mcp/cancel-on-disconnect";

export const MCP_PATH = "/mcp";
const SESSION_HEADER = "mcp-session-id";

export type McpDoor = {
  handle: (req: IncomingMessage, res: ServerResponse) => void;
  sessions: McpSessions;
  close: () => Promise<void>;
};

export function isMcpRequest(req: IncomingMessage): boolean {
  const url = req.url ?? "";
  return url.startsWith(MCP_PATH) && (url.length === MCP_PATH.length || url[MCP_PATH.length] === "?");
}

export function createMcpDoor(
  app: AppContext,
  loopbackUrl: string,
  limits: Partial<McpLimits> = {},
): McpDoor {
  // The token's own row, not the request-path verifier: a sweep is no use of the token (its last-used time stays), and a revocation on another node counts.
  const stillValid = (tokenId: string) => tokenStillValid(app.store, tokenId);
  const sessions = new McpSessions(loopbackUrl, stillValid, { ...MCP_LIMITS, ...limits });
  const handle = (req: IncomingMessage, res: ServerResponse) =>
    void serveMcp(app, sessions, req, res).catch((e) => sendError(res, e));
  return { handle, sessions, close: () => sessions.close() };
}

async function serveMcp(app: AppContext, sessions: McpSessions, req: IncomingMessage, res: ServerResponse) {
  // A browser page of another site (or one reached by DNS rebinding) says where it comes from;
  // MCP clients that are not browsers send no Origin.
  const origin = req.headers.origin;
  if (origin !== undefined && !app.config.trustedOrigins.includes(origin))
    throw new AppError(403, "bad_origin", `requests from origin ${origin} are not allowed on ${MCP_PATH}`);
  if (req.method !== "POST" && req.method !== "GET" && req.method !== "DELETE") {
    res.setHeader("allow", "GET, POST, DELETE");
    throw new AppError(405, "method_not_allowed", `${req.method} is not allowed on ${MCP_PATH}`);
  }
  const owner = await authenticate(app, sessions, req, res);
  const sessionId = req.headers[SESSION_HEADER];
  if (Array.isArray(sessionId)) throw new AppError(400, "bad_session", "send one Mcp-Session-Id header");
  const body = req.method === "POST" ? await readMcpBody(req) : undefined;

  let session: McpSession;
  if (sessionId === undefined) {
    if (req.method !== "POST")
      throw new AppError(
        400,
        "no_session",
        "send the Mcp-Session-Id header of your session (initialize one with a POST first)",
      );
    session = await sessions.open(owner);
  } else {
    const found = sessions.find(sessionId, owner);
    if (!found)
      throw new AppError(
        404,
        "session_not_found",
        "no such MCP session for this token (ended, expired, or never opened): initialize a new one",
      );
    session = found;
  }

  // A session is busy while a POST's requests are under way (a batch holds several); the GET
  // stream every client keeps open is not a call, nor is a notification.
  const calls = req.method === "POST" ? requestIds(body).length : 0;
  // Each call may hold a page of the tape and its answer while it runs: a session's are bounded
  // (a notification, such as a cancellation, always gets through).
  if (calls && session.inFlight + calls > sessions.limits.callsPerSession)
    throw new AppError(
      429,
      "too_many_calls",
      `this MCP session allows ${sessions.limits.callsPerSession} requests at once and has ${session.inFlight} ` +
        `under way; this one holds ${calls}: wait for one to end`,
    );
  session.inFlight += calls;
  session.lastSeen = Date.now();
  const resumeFrom = req.method === "GET" ? req.headers["last-event-id"] : undefined;
  // What came after it was dropped to keep the session's memory bounded: a replay would have a hole.
  if (typeof resumeFrom === "string" && session.events.dropped(resumeFrom))
    throw new AppError(
      400,
      "events_dropped",
      `the messages after event ${resumeFrom} were dropped (this session keeps a bounded number of bytes): ` +
        "call again the tools whose answers you did not get",
    );
  if (resumeFrom) session.lastResumeAt = Date.now();
  res.once("close", () => {
    session.lastSeen = Date.now();
    if (!calls) return;
    session.inFlight -= calls;
    if (!res.writableFinished) cancelIfNotResumed(session, body, sessions.limits.resumeGraceMs);
  });
  try {
    await session.transport.handleRequest(req, res, body);
  } finally {
    // An initialize the transport refused (or anything else sent without a session) leaves an uninitialized server: close it.
    if (sessionId === undefined && !session.transport.sessionId) await sessions.end(session);
  }
}

/** The caller's agent token, on every request: refused with 401 and `WWW-Authenticate: Bearer` otherwise; then rate limited like the API. */
async function authenticate(
  app: AppContext,
  sessions: McpSessions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Owner> {
  const ip = app.access.clientIp(req);
  const refuse = (message: string) => {
    res.setHeader("www-authenticate", `Bearer realm="podwatch", error="invalid_token"`);
    return new AppError(401, "unauthenticated", message);
  };
  const secret = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  if (!secret) {
    res.setHeader("www-authenticate", `Bearer realm="podwatch"`);
    throw new AppError(
      401,
      "unauthenticated",
      `${MCP_PATH} needs an agent token: Authorization: Bearer <token>`,
    );
  }
  const identity = await resolveIdentity(app.access, { authorization: req.headers.authorization });
  if (identity === "invalid") {
    // Counted per IP like the API's failures, so a token cannot be guessed here either.
    await countFailedAuth(app, ip, res);
    // A revoked token ends the session it presents, with whatever it was waiting for.
    const sessionId = req.headers[SESSION_HEADER];
    if (typeof sessionId === "string") await sessions.endIfOwnedBy(sessionId, secret);
    throw refuse("the token is unknown, revoked or mistyped");
  }
  if (identity.kind !== "agent")
    throw new AppError(
      403,
      "agent_token_required",
      `${MCP_PATH} speaks for one pod member: use an agent token of the pod, not this credential`,
    );
  await takeRequest(app, `token:${identity.tokenId}`, res);
  return { tokenId: identity.tokenId, podId: identity.podId, memberId: identity.memberId, secret };
}
