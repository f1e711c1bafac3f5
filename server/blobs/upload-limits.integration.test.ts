// Stalled uploads must not block a node's blob uploads (PostgreSQL holds a connection per
// upload): a body that stops sending is refused (408) and rolled back; a wait for a slot is
// bounded (503); one caller holds at most one slot, so two stalled uploads from one token
// leave room for everyone else. The store runs on a real database with short limits.
import { createHash, randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TapeStore } from "../db/tape-store";
import { openStore } from "../db/open-store";
import { createTestDatabase, rawSql, type TestDatabase } from "../testing/test-databases";
import { PostgresBlobStore } from "./postgres-blob-store";
import { CHUNK_BYTES } from "./chunk-upload";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** A body that sends `sent` bytes of `data` and then nothing more, until `rest()` sends the remainder. */
function stalled(data: Buffer, sent: number) {
  const body = new PassThrough();
  body.write(data.subarray(0, sent));
  return { body, rest: () => body.end(data.subarray(sent)) };
}

if (process.env.TEST_DATABASE_URL) {
  describe("blob upload limits on PostgreSQL", () => {
    let db: TestDatabase;
    let store: TapeStore;
    const count = async (table: "blob" | "blob_chunk") =>
      ((await rawSql(db, `SELECT count(*)::int AS n FROM ${table}`)) as { n: number }[])[0]!.n;
    const openTransactions = async () =>
      (
        (await rawSql(
          db,
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
        )) as { n: number }[]
      )[0]!.n;

    beforeAll(async () => {
      db = await createTestDatabase("postgres");
      store = await openStore(db.url, { poolMax: 10 });
    });
    afterAll(async () => (await store?.close(), await db?.drop()));

    it("a body that stops sending is refused with 408 and leaves no row and no open transaction", async () => {
      const blobs = new PostgresBlobStore(store.pool!, 4 * CHUNK_BYTES, 2, { bodyIdleMs: 300 });
      const data = randomBytes(2 * CHUNK_BYTES);
      const { body } = stalled(data, CHUNK_BYTES + 10); // past a chunk: a connection is held
      await expect(blobs.put(sha(data), body, { caller: "t1" })).rejects.toMatchObject({
        status: 408,
        code: "body_timeout",
      });
      expect(await count("blob")).toBe(0);
      expect(await count("blob_chunk")).toBe(0);
      expect(await openTransactions()).toBe(0);
      // Its slot is free again: the same caller stores a blob.
      const small = randomBytes(1000);
      expect(await blobs.put(sha(small), new PassThrough().end(small), { caller: "t1" })).toEqual({
        size: 1000,
        created: true,
      });
    });

    it("with every slot held by stalled uploads, another upload gets 503 after a bounded wait, not a place in an endless queue", async () => {
      const blobs = new PostgresBlobStore(store.pool!, 4 * CHUNK_BYTES, 2, {
        bodyIdleMs: 10_000,
        waitMs: 300,
        maxWaiting: 1,
      });
      const big = [randomBytes(2 * CHUNK_BYTES), randomBytes(2 * CHUNK_BYTES)];
      const holders = big.map((d, i) => ({ ...stalled(d, CHUNK_BYTES + 1), d, caller: `holder-${i}` }));
      const held = holders.map((h) => blobs.put(sha(h.d), h.body, { caller: h.caller }));
      await new Promise((r) => setTimeout(r, 100)); // both now hold a slot and a connection
      const tiny = randomBytes(10);
      const waiting = blobs.put(sha(tiny), new PassThrough().end(tiny), { caller: "someone" });
      // Which of the two waiters reaches the queue first is a race: either may be refused before the other is awaited.
      waiting.catch(() => {});
      const other = randomBytes(10);
      // The queue holds one: a second waiter is told at once.
      await expect(
        blobs.put(sha(other), new PassThrough().end(other), { caller: "another" }),
      ).rejects.toMatchObject({ status: 503, code: "blob_uploads_busy" });
      await expect(waiting).rejects.toMatchObject({
        status: 503,
        code: "blob_uploads_busy",
        retryAfterSeconds: 5,
      });
      for (const h of holders) h.rest();
      expect((await Promise.all(held)).map((r) => r.created)).toEqual([true, true]);
      expect(await blobs.put(sha(tiny), new PassThrough().end(tiny), { caller: "someone" })).toEqual({
        size: 10,
        created: true,
      });
    });

    it("one caller holds one slot at a time: its second upload waits (then 503), while another caller's goes through", async () => {
      const blobs = new PostgresBlobStore(store.pool!, 4 * CHUNK_BYTES, 2, {
        bodyIdleMs: 10_000,
        waitMs: 300,
      });
      const first = randomBytes(2 * CHUNK_BYTES);
      const second = randomBytes(2 * CHUNK_BYTES);
      const a = stalled(first, CHUNK_BYTES + 1);
      const b = stalled(second, CHUNK_BYTES + 1);
      const holding = blobs.put(sha(first), a.body, { caller: "greedy" });
      await new Promise((r) => setTimeout(r, 100));
      await expect(blobs.put(sha(second), b.body, { caller: "greedy" })).rejects.toMatchObject({
        status: 503,
        message: /previous blob upload/,
      });
      const fair = randomBytes(CHUNK_BYTES + 5);
      expect(await blobs.put(sha(fair), new PassThrough().end(fair), { caller: "polite" })).toEqual({
        size: fair.length,
        created: true,
      });
      a.rest();
      expect((await holding).created).toBe(true);
      expect(await openTransactions()).toBe(0);
    });
  });
}
