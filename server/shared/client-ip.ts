// Who the client is, for everything that keys on an address (API limits, failed authentications,
// Better Auth's sign-in throttle, Socket.IO handshakes, the MCP door). Directly reached, it is the
// socket's peer. Behind proxies listed in PODWATCH_TRUSTED_PROXIES, it is what they say in
// X-Forwarded-For — read from the right, where our own proxies appended, so a client cannot pick
// its bucket by sending its own header: anything left of the first untrusted hop is its say-so.
import type { IncomingHttpHeaders } from "node:http";
import { BlockList, isIP } from "node:net";

/** What the address is read from: an IncomingMessage, or a Socket.IO handshake's address and headers. */
export type PeerRequest = { socket: { remoteAddress?: string }; headers: IncomingHttpHeaders };
export type ClientIp = (req: PeerRequest) => string;

/** The header may grow by one address per hop; more than this is a client padding it. Only the right end matters. */
const MAX_HEADER_CHARS = 2048;
const MAX_HOPS = 32;

/** "::ffff:10.0.0.1" and "10.0.0.1" are one client: one bucket. */
const canonical = (ip: string) => (ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip);

export function trustList(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [ip, bits] = entry.split("/") as [string, string | undefined];
    const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(ip, family);
    else list.addSubnet(ip, Number(bits), family);
  }
  return list;
}

const trusted = (list: BlockList, ip: string) => {
  const family = isIP(ip);
  return family !== 0 && list.check(ip, family === 6 ? "ipv6" : "ipv4");
};

/**
 * The client's address, given the peer and its X-Forwarded-For (pure; unit-tested). An untrusted
 * peer's header is ignored. From a trusted peer, the right-most address that is not trusted; when
 * every hop is trusted, the left-most. A hop that is not an address ends the walk at the last
 * trusted one: a proxy that forwards garbage says nothing we could key on.
 */
export function resolveClientIp(peer: string, forwardedFor: string | undefined, list: BlockList): string {
  if (!forwardedFor || !trusted(list, peer)) return canonical(peer);
  const clipped = forwardedFor.length > MAX_HEADER_CHARS;
  const hops = (clipped ? forwardedFor.slice(-MAX_HEADER_CHARS) : forwardedFor).split(",");
  if (clipped) hops.shift(); // cut mid-address
  let client = peer;
  for (let i = hops.length - 1, seen = 0; i >= 0 && seen < MAX_HOPS; i--, seen++) {
    const hop = hops[i]!.trim();
    if (!isIP(hop)) break;
    client = hop;
    if (!trusted(list, hop)) break;
  }
  return canonical(client);
}

/** The resolver for a server. Without trusted proxies the header is never read (the hot path stays a property read). */
export function clientIpResolver(trustedProxies: string[]): ClientIp {
  if (!trustedProxies.length) return (req) => canonical(req.socket.remoteAddress ?? "unknown");
  const list = trustList(trustedProxies);
  return (req) => {
    const header = req.headers["x-forwarded-for"];
    return resolveClientIp(
      req.socket.remoteAddress ?? "unknown",
      Array.isArray(header) ? header.join(",") : header,
      list,
    );
  };
}
