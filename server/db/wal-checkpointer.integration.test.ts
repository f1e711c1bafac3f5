// WAL checkpoints run in a worker thread (./wal-checkpointer.ts), not in the serving connection's
// commits, which run on the event loop. Real files and real SQLite: what the database file itself
// holds (read from a copy made without its WAL) says what has been checkpointed.
import { randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { configureServing } from "./sqlite-store";
import { sqlitePath } from "./sqlite-path";
import { WalCheckpointer } from "./wal-checkpointer";
import { agentPod, api, startServerOn } from "../testing/test-server";
import { createTestDatabase, type TestDatabase } from "../testing/test-databases";
import { eventually } from "../testing/eventually";

const MiB = 1 << 20;

/** Rows of `table` in the database file alone, as a crash that lost the WAL would find it (-1: unreadable now). */
function rowsInFileAlone(path: string, sql: string, params: unknown[] = []): number {
  const copy = `${path}.copy-${randomUUID()}`;
  try {
    copyFileSync(path, copy);
    const db = new Database(copy);
    try {
      return (db.prepare(sql).get(...params) as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return -1; // copied in the middle of a checkpoint: read again
  } finally {
    for (const f of [copy, `${copy}-wal`, `${copy}-shm`]) rmSync(f, { force: true });
  }
}

describe("WAL checkpoints off the event loop", () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it("starts its thread at the first checkpoint, not before: a server that has not written holds none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wal-checkpointer-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "lazy.db");
    const db = new Database(path);
    cleanup.push(() => void db.close());
    configureServing(db, "full");
    db.exec("CREATE TABLE t (x)");
    const threads = () => readdirSync("/proc/self/task").length; // a worker is a thread of this process
    const before = threads();
    const checkpointers = [1, 2, 3, 4].map(() => new WalCheckpointer(path));
    for (const c of checkpointers) cleanup.push(() => c.close());
    const first = checkpointers[0]!;
    expect(threads()).toBeLessThan(before + 4);
    db.exec("INSERT INTO t VALUES (1)");
    expect((await first.checkpoint()).log).toBeGreaterThan(0);
    expect(threads()).toBeGreaterThan(before);
  });

  it("a commit of the serving connection does not checkpoint, past 64 MiB of WAL; the worker's checkpoint copies every frame", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wal-checkpointer-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, "x.db");
    const db = new Database(path);
    cleanup.push(() => void db.close());
    configureServing(db, "full");
    db.exec("CREATE TABLE filler (b BLOB)");
    const insert = db.prepare("INSERT INTO filler (b) VALUES (?)");
    for (let i = 0; i < 72; i++) insert.run(Buffer.alloc(MiB, i)); // 72 commits, each 1 MiB
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(72 * MiB);
    expect(statSync(path).size).toBeLessThan(MiB); // nothing copied back by a commit

    const checkpointer = new WalCheckpointer(path);
    cleanup.push(() => checkpointer.close());
    const done = await checkpointer.checkpoint();
    expect(done.log).toBeGreaterThan(72 * 256); // 4 KiB pages
    expect(done.checkpointed).toBe(done.log);
    expect(rowsInFileAlone(path, "SELECT count(*) AS n FROM filler")).toBe(72);
  });

  describe("in the store", () => {
    let db: TestDatabase;
    const note = (i: number) => ({
      id: randomUUID(),
      type: "note",
      actor: "impl",
      body: { kind: "OBSERVATION", text: `checkpointed ${i} ${"x".repeat(400)}` },
    });

    it("checkpoints what appends wrote, keeps the WAL from growing round after round, and removes it at a clean close", async () => {
      db = await createTestDatabase("sqlite");
      cleanup.push(() => db.drop());
      const server = await startServerOn(db);
      let open = true;
      cleanup.push(() => (open ? server.close() : undefined));
      const path = sqlitePath(db.url);
      const { podId, tokens } = await agentPod(server.url, "checkpointed", { impl: "implementer" });
      const walSizes: number[] = [];
      for (let round = 0; round < 5; round++) {
        const events = Array.from({ length: 500 }, (_, i) => note(round * 500 + i));
        const posted = await api(
          server.url,
          "POST",
          `/api/v1/pods/${podId}/events`,
          { events },
          {
            token: tokens.impl!,
          },
        );
        expect(posted.status).toBe(201);
        const head = (await server.app.store.readHead(podId))!.seq;
        // In the database file itself, not only in the WAL: checkpointed, without a commit doing it.
        await eventually(
          async () => rowsInFileAlone(path, "SELECT max(seq) AS n FROM event WHERE pod_id = ?", [podId]),
          (n) => n === head,
          `the database file to hold the pod's events up to seq ${head}`,
        );
        walSizes.push(statSync(`${path}-wal`).size);
      }
      // Each round starts the WAL over once the previous one is checkpointed: it does not add up.
      expect(Math.max(...walSizes.slice(1))).toBeLessThan(2 * walSizes[0]!);

      open = false;
      await server.close();
      expect(existsSync(`${path}-wal`)).toBe(false); // the last connection closed checkpointed it all
      expect(
        rowsInFileAlone(path, "SELECT count(*) AS n FROM event WHERE pod_id = ?", [podId]),
      ).toBeGreaterThan(2500);
    });
  });
});
