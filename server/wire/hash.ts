// How podwatch names bytes, on both sides of the wire: SHA-256 as lowercase hex (events, blobs,
// evidence manifests), over bytes or a stream of chunks, and the canonical JSON a manifest is
// hashed as. No I/O: callers bring the bytes (the blob store and the SDK read their own files).
import { createHash } from "node:crypto";

export { sha256Hex } from "../domain/hash-chain";
export { canonicalJson } from "../domain/canonical-json";

/** The SHA-256 and byte size of a stream of chunks, hashed as they come (a 20 MB log never sits in memory). */
export async function hashChunks(chunks: AsyncIterable<Uint8Array>): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    size += chunk.byteLength;
  }
  return { sha256: hash.digest("hex"), size };
}
