// Blobs on two nodes of one PostgreSQL: two real servers in this process on one
// database. What one node stores the other serves and verifies; a refused upload (too large,
// the wrong content, a client gone) leaves no row and no open transaction; two uploads of one
// blob at once both succeed and store it once. With PODWATCH_BLOB_DIR both nodes use the folder.
import { createHash, randomBytes } from "node:crypto";
import { request } from "node:http";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../start-server";
import { startServerOn, TEST_ADMIN_TOKEN, agentPod } from "../testing/test-server";
import { createTestDatabase, rawSql, type TestDatabase } from "../testing/test-databases";
import { eventually, sleep } from "../testing/eventually";
import { CHUNK_BYTES } from "./chunk-upload";

const MAX = 2 * 1024 * 1024;
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** Reads a blob as the site admin (who may read any blob). */
const get = (node: RunningServer, name: string, path = "") =>
  fetch(`${node.url}/api/v1/blobs/${name}${path}`, { headers: admin });

/**
 * PUT `data` in pieces of `piece` bytes, `pauseMs` apart (so uploads overlap), or only its first
 * `abortAfter` bytes before the client goes away.
 */
function put(
  node: RunningServer,
  token: string,
  name: string,
  data: Buffer,
  opts: { piece?: number; pauseMs?: number; abortAfter?: number } = {},
) {
  const { piece = 64 * 1024, pauseMs = 0, abortAfter } = opts;
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(`${node.url}/api/v1/blobs/${name}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-length": data.length },
    });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
    req.on("error", (e) => (abortAfter === undefined ? reject(e) : resolve({ status: 0, body: null })));
    void (async () => {
      for (let at = 0; at < data.length; at += piece) {
        if (abortAfter !== undefined && at >= abortAfter) return req.destroy();
        if (!req.write(data.subarray(at, at + piece))) await new Promise((r) => req.once("drain", r));
        if (pauseMs) await sleep(pauseMs);
      }
      req.end();
    })().catch(() => {});
  });
}

if (process.env.TEST_DATABASE_URL) {
  describe("blobs in PostgreSQL, two nodes", () => {
    let db: TestDatabase;
    let a: RunningServer;
    let b: RunningServer;
    let token: string;
    const count = async (table: "blob" | "blob_chunk") =>
      ((await rawSql(db, `SELECT count(*)::int AS n FROM ${table}`)) as { n: number }[])[0]!.n;
    /** Sessions of this database left inside a transaction with nothing running (an upload that was never rolled back). */
    const openTransactions = async () =>
      (
        (await rawSql(
          db,
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
        )) as { n: number }[]
      )[0]!.n;

    beforeAll(async () => {
      db = await createTestDatabase("postgres");
      a = await startServerOn(db, { PODWATCH_BLOB_MAX_BYTES: String(MAX), PODWATCH_NODE_ID: "blobs-a" });
      b = await startServerOn(db, { PODWATCH_BLOB_MAX_BYTES: String(MAX), PODWATCH_NODE_ID: "blobs-b" });
      token = (await agentPod(a.url, "blobs", { uploader: "implementer" })).tokens["uploader"]!;
    });
    afterAll(async () => (await a?.close(), await b?.close(), await db?.drop()));

    it("a blob stored through node A is read byte for byte, and verified, through node B", async () => {
      const data = randomBytes(MAX - 100_001); // several chunks, the last one short
      expect((await put(a, token, sha(data), data)).status).toBe(201);
      const got = await get(b, sha(data));
      expect(got.status).toBe(200);
      expect(got.headers.get("content-length")).toBe(String(data.length));
      expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
      expect(await (await get(b, sha(data), "/verify")).json()).toEqual({
        sha256: sha(data),
        ok: true,
        size: data.length,
      });
      expect((await put(b, token, sha(data), data)).body).toEqual({
        sha256: sha(data),
        size: data.length,
        created: false,
      });
      const rows = (await rawSql(
        db,
        `SELECT idx, length(data)::int AS bytes FROM blob_chunk ORDER BY idx`,
      )) as { idx: number; bytes: number }[];
      expect(rows.map((r) => r.bytes)).toEqual([
        ...Array(Math.floor(data.length / CHUNK_BYTES)).fill(CHUNK_BYTES),
        data.length % CHUNK_BYTES,
      ]);
    });

    it("a changed chunk in the database is caught by verify on either node", async () => {
      const data = randomBytes(CHUNK_BYTES + 10);
      expect((await put(b, token, sha(data), data)).status).toBe(201);
      await rawSql(
        db,
        `UPDATE blob_chunk SET data = set_byte(data, 5, (get_byte(data, 5) + 1) % 256) WHERE idx = 1 AND content_id = (SELECT content_id FROM blob WHERE sha256 = $1)`,
        [sha(data)],
      );
      expect(await (await get(a, sha(data), "/verify")).json()).toEqual({
        sha256: sha(data),
        ok: false,
        size: data.length,
      });
    });

    it("an upload over the limit, the wrong content, or a client that goes away leaves no row and no open transaction", async () => {
      const [blobs, chunks] = [await count("blob"), await count("blob_chunk")];
      const big = randomBytes(MAX + 1); // the limit is found while streaming: 8 chunks were written by then
      const over = await new Promise<number>((resolve, reject) => {
        const req = request(`${a.url}/api/v1/blobs/${sha(big)}`, {
          method: "PUT",
          headers: { authorization: `Bearer ${token}`, "transfer-encoding": "chunked" },
        });
        req.on("response", (res) => (res.resume(), resolve(res.statusCode!)));
        req.on("error", reject);
        req.end(big);
      });
      expect(over).toBe(413);
      const wrong = randomBytes(3 * CHUNK_BYTES);
      const mismatch = await put(a, token, sha(randomBytes(10)), wrong);
      expect([mismatch.status, mismatch.body.error.code]).toEqual([400, "hash_mismatch"]);
      // Three clients vanish mid-upload, more than the node's upload slots (a quarter of its pool).
      const vanished = randomBytes(MAX - 1);
      await Promise.all(
        [a, a, a].map((n) => put(n, token, sha(vanished), vanished, { abortAfter: 3 * CHUNK_BYTES })),
      );
      await eventually(openTransactions, (n) => n === 0, "the abandoned uploads rolled back");
      expect([await count("blob"), await count("blob_chunk")]).toEqual([blobs, chunks]);
      // The slots and connections came back: the same node takes the whole blob now.
      expect((await put(a, token, sha(vanished), vanished)).status).toBe(201);
    });

    it("two uploads of one blob at once, one per node, both succeed and store it once", async () => {
      const data = randomBytes(5 * CHUNK_BYTES + 3);
      const both = await Promise.all(
        [a, b].map((n) => put(n, token, sha(data), data, { piece: 32 * 1024, pauseMs: 5 })),
      );
      expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
      expect(both.map((r) => r.body.created).sort()).toEqual([false, true]);
      const rows = (await rawSql(
        db,
        `SELECT count(DISTINCT content_id)::int AS ids, count(*)::int AS n FROM blob_chunk WHERE content_id IN (SELECT content_id FROM blob WHERE sha256 = $1)`,
        [sha(data)],
      )) as { ids: number; n: number }[];
      expect(rows[0]).toEqual({ ids: 1, n: 6 });
      expect(await openTransactions()).toBe(0);
      expect(await count("blob_chunk")).toBe(
        (
          (await rawSql(
            db,
            `SELECT coalesce(sum(ceil(size / ${CHUNK_BYTES}.0)), 0)::int AS n FROM blob`,
          )) as { n: number }[]
        )[0]!.n,
      );
    });
  });

  describe("blobs in a folder shared by two nodes (PODWATCH_BLOB_DIR) on one PostgreSQL", () => {
    let db: TestDatabase;
    let dir: string;
    let nodes: RunningServer[];
    beforeAll(async () => {
      db = await createTestDatabase("postgres");
      dir = mkdtempSync(join(tmpdir(), "podwatch-shared-blobs-"));
      nodes = [
        await startServerOn(db, { PODWATCH_BLOB_DIR: dir }),
        await startServerOn(db, { PODWATCH_BLOB_DIR: dir }),
      ];
    });
    afterAll(async () => {
      for (const n of nodes ?? []) await n.close();
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it("a blob put through one node is a file in the folder, read and verified through the other; the database holds none", async () => {
      const [a, b] = nodes as [RunningServer, RunningServer];
      const { tokens } = await agentPod(a.url, "shared", { uploader: "implementer" });
      const data = randomBytes(700_000);
      expect((await put(a, tokens["uploader"]!, sha(data), data)).status).toBe(201);
      expect(existsSync(join(dir, sha(data).slice(0, 2), sha(data)))).toBe(true);
      expect(Buffer.from(await (await get(b, sha(data))).arrayBuffer()).equals(data)).toBe(true);
      expect(await (await get(b, sha(data), "/verify")).json()).toEqual({
        sha256: sha(data),
        ok: true,
        size: data.length,
      });
      expect((await put(b, tokens["uploader"]!, sha(data), data)).body.created).toBe(false);
      expect(await rawSql(db, `SELECT sha256 FROM blob`)).toEqual([]);
    });
  });
}
