// Push endpoints are URLs a browser hands us, so a person could name any host:
// like webhook targets (server/webhooks/ssrf.ts) they must not reach into the
// server's own network. https only, no credentials, and every address the host
// resolves to public — checked when a device subscribes and again at each
// connection (a name that later resolves inward is refused then).
// PODWATCH_PUSH_INSECURE_LOOPBACK=1 (tests) allows a push service on loopback, over http too.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { AppError } from "../domain/errors";
import { isForbiddenAddress } from "../webhooks/ssrf";

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");

const isLoopback = (ip: string) => (isIP(ip) === 4 ? loopback.check(ip, "ipv4") : ip === "::1" || /^::ffff:127\.\d+\.\d+\.\d+$/i.test(ip));

/** Whether the server may post pushes to this address. */
export const mayReach = (ip: string, insecureLoopback: boolean) => !isForbiddenAddress(ip) || (insecureLoopback && isLoopback(ip));

const refused = (why: string) => new AppError(400, "invalid_request", `invalid request: endpoint: ${why}`);
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");
const lookupAll = (host: string) => new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true }, (e, a) => (e ? reject(e) : resolve(a))));

/** Checks a subscription's endpoint as a device subscribes; refuses with a message for the person. */
export async function checkPushEndpoint(endpoint: string, insecureLoopback: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw refused("not a URL");
  }
  const host = hostOf(url);
  if (url.username || url.password) throw refused("a push endpoint carries no user name or password");
  const http = url.protocol === "http:" && insecureLoopback;
  if (url.protocol !== "https:" && !http) throw refused("a push endpoint must be an https URL");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookupAll(host)).map((a) => a.address);
  } catch {
    throw refused(`the host ${host} could not be resolved`);
  }
  if (!addresses.length || !addresses.every((a) => mayReach(a, insecureLoopback) && (!http || isLoopback(a)))) {
    throw refused(`the host ${host} is a loopback, private or otherwise internal address, not a push service`);
  }
}

/** The error a refused connection fails with (not retried: the endpoint will not become public by waiting). */
export const SSRF_CODE = "ESSRF";

/** A `lookup` for the push request: after DNS, before the socket, every inward address is dropped. */
export function pushLookup(insecureLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      const ok = addresses.filter((a) => mayReach(a.address, insecureLoopback));
      if (!ok.length) return callback(Object.assign(new Error(`refused: ${hostname} resolves to a private or internal address`), { code: SSRF_CODE }), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, ok);
      callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}

/** A literal address never goes through lookup: checked here before connecting. */
export function checkLiteralHost(endpoint: string, insecureLoopback: boolean) {
  const host = hostOf(new URL(endpoint));
  if (isIP(host) && !mayReach(host, insecureLoopback)) throw Object.assign(new Error(`refused: ${host} is a private or internal address`), { code: SSRF_CODE });
}
