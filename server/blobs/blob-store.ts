// Content-addressed evidence files: a blob's name is the SHA-256 of its bytes,
// checked while it streams in; a mismatch or an oversized body stores nothing.
// Where the bytes live is the store's business (open-blob-store.ts chooses): files
// in a folder (the data folder, or PODWATCH_BLOB_DIR shared by every node) or
// chunks in PostgreSQL.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { AppError } from "../domain/errors";
import { hashChunks } from "../wire/hash";

export type BlobPut = { size: number; created: boolean };

/**
 * `declaredLength`: the request's content-length (413 before reading a byte past the limit).
 * `caller`: who uploads (a token), so one caller holds at most one of the database's upload slots.
 */
export type PutOptions = { declaredLength?: number; caller?: string };

/** An upload whose client sends nothing for this long is refused (408): a stalled body must not hold a slot, a file or a transaction. */
export const BODY_IDLE_MS = 15_000;

export interface BlobStore {
  /** Largest blob `put` accepts (413 beyond it). */
  readonly maxBytes: number;
  stat(sha256: string): Promise<{ size: number } | null>;
  /**
   * Streams `body` in; keeps it only if its SHA-256 is `sha256` and it fits. Even a blob
   * already stored is read and hashed whole: "already there" (created: false) is said only
   * to someone who holds the content, never to whoever merely knows its hash.
   */
  put(sha256: string, body: Readable, options?: PutOptions): Promise<BlobPut>;
  /** The blob's bytes, streamed with backpressure (the stream fails with code ENOENT if there is no such blob). */
  open(sha256: string): Readable;
}

/** Re-reads a stored blob and checks its bytes still hash to its name; null when there is none. */
export async function verifyBlob(
  store: BlobStore,
  sha256: string,
): Promise<{ ok: boolean; size: number } | null> {
  const actual = await hashChunks(store.open(sha256)).catch((e: NodeJS.ErrnoException) =>
    e.code === "ENOENT" ? null : Promise.reject(e),
  );
  return actual && { ok: actual.sha256 === sha256, size: actual.size };
}

/**
 * Reads `body` to its end through `write`, hashing and counting as it goes: 413 past `max`
 * bytes. Reads without destroying the request when it stops early: an over-limit upload gets
 * its 413 on a live connection (node then discards the rest of the body), where destroying it
 * made the client see a reset instead of the answer.
 */
export async function readHashed(
  body: Readable,
  max: number,
  write: (chunk: Buffer) => unknown,
  idleMs = BODY_IDLE_MS,
): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  const chunks = body.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  // Only the wait for the client's next bytes is timed; our own writes (a slot, the disk) are not its fault.
  for (let next = await nextWithin(chunks, idleMs); !next.done; next = await nextWithin(chunks, idleMs)) {
    const chunk = next.value;
    size += chunk.length;
    if (size > max) throw tooBig(max);
    hash.update(chunk);
    await write(chunk);
  }
  return { sha256: hash.digest("hex"), size };
}

function nextWithin(chunks: AsyncIterator<Buffer>, idleMs: number): Promise<IteratorResult<Buffer>> {
  const next = chunks.next();
  next.catch(() => {}); // once we stop waiting, a later failure of the body has nobody to tell
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AppError(
            408,
            "body_timeout",
            `no bytes of the blob arrived for ${Math.round(idleMs / 1000)} s; nothing was stored`,
          ),
        ),
      idleMs,
    );
  });
  return Promise.race([next, idle]).finally(() => clearTimeout(timer));
}

export const tooBig = (max: number) =>
  new AppError(413, "blob_too_large", `blobs are limited to ${max} bytes (PODWATCH_BLOB_MAX_BYTES)`);

export const hashMismatch = (actual: string, named: string) =>
  new AppError(400, "hash_mismatch", `the content's SHA-256 is ${actual}, not ${named}; nothing was stored`);
