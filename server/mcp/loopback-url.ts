// Where this server reaches itself: the address it listens on, never the public
// URL (which may be a proxy, a TLS terminator, or a name this host cannot resolve).
import { hostUrl } from "../config";

export function loopbackUrl(host: string, port: number): string {
  if (host === "" || host === "0.0.0.0") return hostUrl("127.0.0.1", port);
  if (host === "::") return hostUrl("::1", port);
  return hostUrl(host, port);
}
