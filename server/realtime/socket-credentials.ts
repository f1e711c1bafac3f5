// Who is on a socket: the same credentials as the API (session cookie, share
// cookie, or a token in the handshake). A refused handshake counts toward the
// per-IP auth-failure limit like a refused API call; a revoked credential ends
// its sockets at once; a periodic sweep is the backstop (expired links,
// signed-out sessions, revocations made by another node). A credential found
// valid is taken as valid for a second without another lookup: a socket's
// handshake and its subscribe, and a crowd reconnecting with one share link,
// cost one lookup instead of one each (each was a database read, ~1 ms of the
// node's CPU: 2,000 spectators' sweeps alone took 13% of a core).
import type { IncomingHttpHeaders } from "node:http";
import type { AppContext } from "../app-context";
import type { Identity } from "../domain/access/policy";
import { presentsCredential, resolveIdentity } from "../access/resolve-identity";
import { CLIENT_IP_HEADER } from "../access/create-auth";
import type { RevokedCredential } from "../tape/bus";
import type { PodIo, PodSocket } from "./pod-socket";
import { WIRE_VERSION } from "../wire/socket";

const CREDENTIAL_SWEEP_MS = 15_000;
/** How long a lookup that found a credential valid is reused. Revocations clear it at once (the bus); expiry and sign-out reach sockets at the sweep anyway. */
const RECENT_MS = 1000;

/** Behind a trusted proxy, the client it forwards; read from the handshake, which outlives the first request's connection. */
const socketClientIp = (app: AppContext, socket: PodSocket) =>
  app.access.clientIp({
    socket: { remoteAddress: socket.handshake.address },
    headers: socket.handshake.headers,
  });

/** The handshake's headers, with the token if it came in `auth`, and the client's address as the API sets it (never as the client sent it). */
function credentialHeaders(app: AppContext, socket: PodSocket): IncomingHttpHeaders {
  const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  const headers = { ...socket.handshake.headers, [CLIENT_IP_HEADER]: socketClientIp(app, socket) };
  return typeof token === "string" ? { ...headers, authorization: `Bearer ${token}` } : headers;
}

type Lookups = { since: number; byCredential: Map<string, Promise<Identity | null>> };
/** Per node (tests run several in one process): lookups of the last RECENT_MS, in flight or done, by credential. */
const recentLookups = new WeakMap<AppContext, Lookups>();

/** The lookups of this moment: all of them are forgotten every RECENT_MS, so they never pile up. */
function recent(app: AppContext): Map<string, Promise<Identity | null>> {
  let lookups = recentLookups.get(app);
  if (!lookups || Date.now() - lookups.since > RECENT_MS)
    recentLookups.set(app, (lookups = { since: Date.now(), byCredential: new Map() }));
  return lookups.byCredential;
}

async function lookUp(app: AppContext, headers: IncomingHttpHeaders): Promise<Identity | null> {
  const identity = await resolveIdentity(app.access, headers).catch(() => "invalid" as const);
  return identity === "invalid" || identity.kind === "anonymous" ? null : identity;
}

/** Looked up again after at most RECENT_MS (at once after a revocation), so a revoked token, an expired link or a signed-out session yields null. */
export async function identify(app: AppContext, socket: PodSocket): Promise<Identity | null> {
  const headers = credentialHeaders(app, socket);
  const key = `${headers.authorization ?? ""}\n${headers.cookie ?? ""}\n${headers[CLIENT_IP_HEADER]}`;
  const lookups = recent(app);
  const known = lookups.get(key);
  if (known) return known;
  const found = lookUp(app, headers);
  lookups.set(key, found);
  // Only a valid credential is reused: a refusal is looked up (and counted) every time.
  void found.then((identity) => identity || lookups.delete(key));
  return found;
}

/** The refusal a client sees (as `connect_error`), with the API's 429 details in its data. */
function rateLimited(msBeforeNext: number) {
  const err = new Error("too many failed authentications; try again in a minute") as Error & {
    data: unknown;
  };
  err.data = { code: "rate_limited", retryAfter: Math.max(1, Math.ceil(msBeforeNext / 1000)) };
  return err;
}

/** The handshake check (io.use). A refused credential counts toward its IP's failure limit, shared with the API; past it refusals say "rate limited". */
export function authenticateHandshake(app: AppContext) {
  const failures = app.access.limits.authFailures;
  const check = async (socket: PodSocket): Promise<Error | null> => {
    const origin = socket.handshake.headers.origin;
    if (origin && !app.config.trustedOrigins.includes(origin)) return new Error("origin not allowed");
    const ip = socketClientIp(app, socket);
    const presented = presentsCredential(credentialHeaders(app, socket));
    // A valid credential is always let in: locking out an IP would let one guesser behind a
    // proxy or NAT lock out everyone there (and tokens are 256-bit: guessing is throttled, not the point).
    const identity = await identify(app, socket);
    if (identity) return ((socket.data.identity = identity), null);
    if (!presented) return new Error("authentication required"); // nothing presented is no guess
    const over = await failures.consume(ip).then(
      () => null,
      (r: { msBeforeNext?: number }) => r,
    );
    return over ? rateLimited(over.msBeforeNext ?? 60_000) : new Error("authentication required");
  };
  return (socket: PodSocket, next: (err?: Error) => void) => {
    check(socket).then(
      (err) => next(err ?? undefined),
      () => next(new Error("authentication required")),
    );
  };
}

/** Ends a socket whose credential no longer holds, telling the client why first (it will not reconnect). */
export function endAccess(socket: PodSocket) {
  const reason =
    socket.data.identity?.kind === "share"
      ? "This share link was revoked or has expired: ask whoever shared it for a new one."
      : "Your access ended (signed out, or the credential was revoked): reload the page to sign in again.";
  socket.emit("access:ended", { v: WIRE_VERSION, reason });
  socket.disconnect(true);
}

const holds = (identity: Identity | undefined, c: RevokedCredential) =>
  (c.kind === "agent-token" && identity?.kind === "agent" && identity.tokenId === c.tokenId) ||
  (c.kind === "share-link" && identity?.kind === "share" && identity.linkId === c.linkId);

/** Ends the sockets of a revoked credential as soon as the bus says so, and sweeps every socket periodically. Returns the stop function. */
export function enforceCredentials(app: AppContext, io: PodIo): () => void {
  const onRevoked = (c: RevokedCredential) => {
    recentLookups.delete(app); // a new socket with it is refused from now on, too
    for (const socket of io.sockets.sockets.values()) if (holds(socket.data.identity, c)) endAccess(socket);
  };
  app.bus.on("credential-revoked", onRevoked);
  const sweep = setInterval(async () => {
    for (const socket of io.sockets.sockets.values()) if (!(await identify(app, socket))) endAccess(socket);
  }, CREDENTIAL_SWEEP_MS);
  sweep.unref();
  return () => {
    clearInterval(sweep);
    app.bus.off("credential-revoked", onRevoked);
  };
}
