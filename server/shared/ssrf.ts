// What the server connects to on someone's say-so (webhook targets, push services) must not
// reach into the server's own network: only http(s),
// and no host that resolves to loopback, private, link-local (cloud metadata),
// CGNAT, unique-local, multicast, reserved or unspecified addresses, nor the IPv6 forms
// that carry an IPv4 address (mapped, translated, NAT64, 6to4, Teredo) — checked when an
// endpoint is created and again when each connection is made (a custom `lookup`),
// so a name that later resolves elsewhere (DNS rebinding) is refused too.
// PODWATCH_WEBHOOK_ALLOW_PRIVATE=1 lets an operator (and the tests) allow them.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { AppError } from "../domain/errors";

const blocked = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["2002::", 16],
  // IETF protocol assignments (incl. Teredo 2001::/32, which tunnels to an embedded IPv4 address) and SRv6 SIDs.
  ["2001::", 23],
  ["5f00::", 16],
] as const)
  blocked.addSubnet(net, bits, "ipv6");
// (IPv4-translated addresses, ::ffff:0:0/96, are refused in isForbiddenAddress: node's BlockList
// treats that prefix as IPv4-mapped and would not match it.)

/** The 16 bytes of an IPv6 address (node's isIP said it is one), or null. */
function ipv6Bytes(ip: string): number[] | null {
  let text = ip.split("%")[0]!;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -tail[1]!.length) + ((a << 8) | b).toString(16) + ":" + ((c << 8) | d).toString(16);
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const words = (s: string) => (s ? s.split(":").map((w) => parseInt(w, 16)) : []);
  const h = words(head);
  const r = rest === undefined ? [] : words(rest);
  const all = rest === undefined ? h : [...h, ...Array(8 - h.length - r.length).fill(0), ...r];
  if (all.length !== 8 || all.some((w) => Number.isNaN(w))) return null;
  return all.flatMap((w) => [w >> 8, w & 255]);
}

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or -compatible (::a.b.c.d) IPv6 address, else null. */
function embeddedIpv4(ip: string): string | null {
  const b = ipv6Bytes(ip);
  if (!b) return "0.0.0.0";
  const zeros = b.slice(0, 10).every((x) => x === 0);
  if (!zeros || !((b[10] === 0xff && b[11] === 0xff) || (b[10] === 0 && b[11] === 0))) return null;
  return b.slice(12).join(".");
}

/** True for an address a webhook may not reach unless private targets are allowed. */
export function isForbiddenAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return blocked.check(ip, "ipv4");
  if (family !== 6) return true;
  const bytes = ipv6Bytes(ip);
  if (!bytes) return true;
  // IPv4-translated (::ffff:0:a.b.c.d, SIIT): refused outright.
  if (
    bytes.slice(0, 8).every((x) => x === 0) &&
    bytes[8] === 0xff &&
    bytes[9] === 0xff &&
    bytes[10] === 0 &&
    bytes[11] === 0
  )
    return true;
  const v4 = embeddedIpv4(ip);
  if (v4 !== null) return isIP(v4) !== 4 || blocked.check(v4, "ipv4");
  return blocked.check(ip, "ipv6");
}

const refused = (why: string) => new AppError(400, "webhook_url_refused", why);

/** Checks a webhook URL as it is saved: scheme, credentials, and every address its host resolves to now. */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused("that is not a URL (it starts with https:// or http://)");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw refused("only http:// and https:// URLs can receive webhooks");
  if (url.username || url.password)
    throw refused("put no user name or password in the URL; verify the signature instead");
  if (allowPrivate) return url.toString();
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await resolveAll(host)).map((a) => a.address);
  } catch {
    throw refused(`the host ${host} could not be resolved`);
  }
  if (!addresses.length || addresses.some(isForbiddenAddress))
    throw refused(
      `the host ${host} is a loopback, private or otherwise internal address; webhooks only go to public hosts (an operator may allow private targets with PODWATCH_WEBHOOK_ALLOW_PRIVATE=1)`,
    );
  return url.toString();
}

/** Every address `host` resolves to now. */
export const resolveAll = (host: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (e, a) => (e ? reject(e) : resolve(a))),
  );

/** A URL's host as DNS and `isIP` take it (IPv6 without brackets). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** The code a connection refused by the guard fails with (not worth retrying: the host will not become public by waiting). */
export const SSRF_CODE = "ESSRF";
const ssrfError = (message: string) => Object.assign(new Error(`refused: ${message}`), { code: SSRF_CODE });

/**
 * A `lookup` for http.request that drops, after DNS and before the socket, every address `mayReach`
 * refuses, so a name that resolves inward later (DNS rebinding) is refused then. Webhooks and push
 * share it, each with its own rule.
 */
export function guardedLookup(mayReach: (ip: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, "", 0);
      const ok = addresses.filter((a) => mayReach(a.address));
      if (!ok.length)
        return callback(ssrfError(`${hostname} resolves to a private or internal address`), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, ok);
      callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}

/** A literal address never goes through lookup: checked before connecting. */
export function checkLiteralHost(url: URL, mayReach: (ip: string) => boolean) {
  const host = hostOf(url);
  if (isIP(host) && !mayReach(host)) throw ssrfError(`${host} is a private or internal address`);
}

/** The webhooks' rule: public addresses only, unless the operator allows private targets. */
export const webhookMayReach = (allowPrivate: boolean) => (ip: string) =>
  allowPrivate || !isForbiddenAddress(ip);
