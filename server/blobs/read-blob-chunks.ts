// A stored blob read back from PostgreSQL one chunk per query, only when the
// reader asks for more: a slow download holds neither a connection nor more than
// a chunk or two of memory.
import { Readable } from "node:stream";
import type pg from "pg";
import { CHUNK_BYTES } from "./chunk-upload";

export function readBlobChunks(pool: pg.Pool, sha256: string): Readable {
  let blob: { contentId: string; chunks: number } | null = null;
  let idx = 0;
  return new Readable({
    // Node calls read() again only after this push: one query in flight, none while the reader is full.
    async read() {
      try {
        blob ??= await locate(pool, sha256);
        if (idx === blob.chunks) return void this.push(null);
        const { rows } = await pool.query<{ data: Buffer }>(
          `SELECT data FROM blob_chunk WHERE content_id = $1 AND idx = $2`,
          [blob.contentId, idx],
        );
        if (!rows[0]) throw new Error(`blob ${sha256}: chunk ${idx} of ${blob.chunks} is missing`);
        idx++;
        this.push(rows[0].data);
      } catch (e) {
        this.destroy(e as Error);
      }
    },
  });
}

async function locate(pool: pg.Pool, sha256: string) {
  const { rows } = await pool.query<{ contentId: string; size: string }>(
    `SELECT content_id AS "contentId", size FROM blob WHERE sha256 = $1`,
    [sha256],
  );
  if (!rows[0]) throw Object.assign(new Error(`no blob ${sha256}`), { code: "ENOENT" });
  return { contentId: rows[0].contentId, chunks: Math.ceil(Number(rows[0].size) / CHUNK_BYTES) };
}
