import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/** A file's SHA-256 and size, streamed (a 20 MB log never sits in memory). Used by the blob store and the SDK. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), size };
}
