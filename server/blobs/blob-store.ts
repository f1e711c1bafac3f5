// Content-addressed evidence files: a blob's name is the SHA-256 of its bytes,
// checked while it streams in; a mismatch or an oversized body stores nothing.
// Where the bytes live is the store's business (open-blob-store.ts chooses): files
// in a folder (the data folder, or PODWATCH_BLOB_DIR shared by every node) or
// chunks in PostgreSQL.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { AppError } from "../domain/errors";

export type BlobPut = { size: number; created: boolean };

export interface BlobStore {
  /** Largest blob `put` accepts (413 beyond it). */
  readonly maxBytes: number;
  stat(sha256: string): Promise<{ size: number } | null>;
  /**
   * Streams `body` in; keeps it only if its SHA-256 is `sha256` and it fits. Even a blob
   * already stored is read and hashed whole: "already there" (created: false) is said only
   * to someone who holds the content, never to whoever merely knows its hash.
   */
  put(sha256: string, body: Readable, declaredLength?: number): Promise<BlobPut>;
  /** Re-reads a stored blob and checks its bytes still hash to its name; null when there is none. */
  verify(sha256: string): Promise<{ ok: boolean; size: number } | null>;
  /** The blob's bytes, streamed with backpressure (the stream fails if there is no such blob). */
  open(sha256: string): Readable;
}

/**
 * Reads `body` to its end through `write`, hashing and counting as it goes: 413 past `max`
 * bytes. Reads without destroying the request when it stops early: an over-limit upload gets
 * its 413 on a live connection (node then discards the rest of the body), where destroying it
 * made the client see a reset instead of the answer.
 */
export async function readHashed(body: Readable, max: number, write: (chunk: Buffer) => unknown): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw tooBig(max);
    hash.update(chunk);
    await write(chunk);
  }
  return { sha256: hash.digest("hex"), size };
}

export const tooBig = (max: number) => new AppError(413, "blob_too_large", `blobs are limited to ${max} bytes (PODWATCH_BLOB_MAX_BYTES)`);

export const hashMismatch = (actual: string, named: string) =>
  new AppError(400, "hash_mismatch", `the content's SHA-256 is ${actual}, not ${named}; nothing was stored`);
