// The server's own events get ids derived from what they are about, so the same outcome
// appended twice (a retry, a restart, two nodes) is stored once: the tape dedupes ids.
import { createHash } from "node:crypto";

/** A UUID (version 8, RFC 9562's custom layout) from the SHA-256 of `key`. */
export function systemEventId(key: string): string {
  const h = createHash("sha256").update(key).digest("hex").slice(0, 32).split("");
  h[12] = "8";
  h[16] = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
