// Blobs in PostgreSQL, so every node reads what any node stored. Bytes go in as
// they arrive, 256 KiB a row, inside one transaction that writes the blob's row
// last: a blob is visible only whole, and a refused upload (413, hash mismatch, a
// client gone) rolls back and leaves nothing. Never more than a chunk or two in memory.
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type pg from "pg";
import {
  BODY_IDLE_MS,
  hashMismatch,
  readHashed,
  tooBig,
  type BlobPut,
  type BlobStore,
  type PutOptions,
} from "./blob-store";
import { readBlobChunks } from "./read-blob-chunks";
import { ChunkUpload } from "./chunk-upload";
import { UploadSlots, type SlotLimits } from "./upload-slots";

/** How long an upload waits for a slot before 503, and how many may wait at once. */
export type UploadLimits = Omit<SlotLimits, "slots"> & { bodyIdleMs: number };
const DEFAULT_LIMITS: UploadLimits = { waitMs: 10_000, maxWaiting: 32, bodyIdleMs: BODY_IDLE_MS };

export class PostgresBlobStore implements BlobStore {
  private readonly slots: UploadSlots;
  private readonly limits: UploadLimits;

  /** `uploadSlots`: uploads that may hold one of the pool's connections at once (the tape needs the rest). */
  constructor(
    private readonly pool: pg.Pool,
    readonly maxBytes: number,
    uploadSlots: number,
    limits: Partial<UploadLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.slots = new UploadSlots({ ...this.limits, slots: uploadSlots });
  }

  async stat(sha256: string): Promise<{ size: number } | null> {
    const { rows } = await this.pool.query<{ size: string }>(`SELECT size FROM blob WHERE sha256 = $1`, [
      sha256,
    ]);
    return rows[0] ? { size: Number(rows[0].size) } : null;
  }

  async put(
    sha256: string,
    body: Readable,
    { declaredLength, caller = "anonymous" }: PutOptions = {},
  ): Promise<BlobPut> {
    if (declaredLength !== undefined && declaredLength > this.maxBytes) throw tooBig(this.maxBytes);
    const { bodyIdleMs } = this.limits;
    // Already stored: the content is still read and hashed whole (see BlobStore.put), but nothing is written.
    if (await this.stat(sha256)) {
      const { sha256: actual, size } = await readHashed(body, this.maxBytes, () => {}, bodyIdleMs);
      if (actual !== sha256) throw hashMismatch(actual, sha256);
      return { size, created: false };
    }
    const upload = new ChunkUpload(this.pool, this.slots, randomUUID(), caller);
    try {
      const { sha256: actual, size } = await readHashed(
        body,
        this.maxBytes,
        (chunk) => upload.write(chunk),
        bodyIdleMs,
      );
      if (actual !== sha256) throw hashMismatch(actual, sha256);
      return { size, created: await upload.commit(sha256, size) };
    } finally {
      await upload.abandon();
    }
  }

  open(sha256: string): Readable {
    return readBlobChunks(this.pool, sha256);
  }
}
