// How podwatch names bytes, on both sides of the wire: SHA-256 as lowercase hex (events, blobs,
// evidence manifests), over bytes or a stream of chunks, and the canonical JSON a manifest is
// hashed as. No I/O: callers bring the bytes (the blob store and the SDK read their own files).
import { createHash } from "node:crypto";

export { sha256Hex } from "../domain/hash-chain";
export { canonicalJson } from "../domain/canonical-json";

/** The SHA-256 and byte size of a stream of chunks, hashed as they come (a 20 MB log never sits in memory). */
export async function hashChunks(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { sha256: hash.digest("hex"), size };
}

/** A UUID (version 8, RFC 9562's custom layout) from the SHA-256 of `key`: the same key, the same id, on every machine. */
export function uuidFromKey(key: string): string {
  const h = createHash("sha256").update(key).digest("hex").slice(0, 32).split("");
  h[12] = "8";
  h[16] = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/**
 * The id of one event a Claude Code hook adds (`part` tells them apart), from the hook's key
 * (JSON of pod, member, session, event, tool call). The hook route and the command hook both
 * derive it, so an event the command hook writes in a hook's stead and the hook itself store once.
 */
export const hookEventUuid = (key: string, part: string) => uuidFromKey(`claude-code-hook|${key}|${part}`);
