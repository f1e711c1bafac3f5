// Push endpoints are URLs a browser hands us, so a person could name any host:
// like webhook targets (server/shared/ssrf.ts) they must not reach into the
// server's own network. https only, no credentials, and every address the host
// resolves to public — checked when a device subscribes and again at each
// connection (a name that later resolves inward is refused then).
// A test knob (pushInsecureLoopback, server/test-knobs.ts) allows a push service on loopback, over http too.
import { BlockList, isIP } from "node:net";
import { AppError } from "../domain/errors";
import { checkLiteralHost, guardedLookup, hostOf, isForbiddenAddress, resolveAll } from "../shared/ssrf";

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");

const isLoopback = (ip: string) =>
  isIP(ip) === 4 ? loopback.check(ip, "ipv4") : ip === "::1" || /^::ffff:127\.\d+\.\d+\.\d+$/i.test(ip);

/** Whether the server may post pushes to this address. */
export const mayReach = (ip: string, insecureLoopback: boolean) =>
  !isForbiddenAddress(ip) || (insecureLoopback && isLoopback(ip));

const refused = (why: string) => new AppError(400, "invalid_request", `invalid request: endpoint: ${why}`);

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
    addresses = isIP(host) ? [host] : (await resolveAll(host)).map((a) => a.address);
  } catch {
    throw refused(`the host ${host} could not be resolved`);
  }
  if (
    !addresses.length ||
    !addresses.every((a) => mayReach(a, insecureLoopback) && (!http || isLoopback(a)))
  ) {
    throw refused(
      `the host ${host} is a loopback, private or otherwise internal address, not a push service`,
    );
  }
}

/** The push sender's connect-time guard and literal-address check: the shared ones, with push's rule. */
export const pushLookup = (insecureLoopback: boolean) =>
  guardedLookup((ip) => mayReach(ip, insecureLoopback));
export const checkPushHost = (endpoint: string, insecureLoopback: boolean) =>
  checkLiteralHost(new URL(endpoint), (ip) => mayReach(ip, insecureLoopback));
