// The leader lease (server/cluster/leader-lease.ts). On SQLite the one node leads at once. On
// PostgreSQL a holder that falls silent without its socket closing (a frozen VM, a power cut, a
// partition: here a child process stopped with SIGSTOP) loses the lock within the session's idle
// limit and another node takes over, while a live holder keeps it however long it runs; the frozen
// holder, woken, finds its session gone and stops its work.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { LeaderLease } from "./leader-lease";
import { createTestDatabase, rawSql, type TestDatabase } from "../testing/test-databases";
import { eventually, sleep } from "../testing/eventually";

const RETRY_MS = 200;
const IDLE_LIMIT_MS = 5 * RETRY_MS; // as leader-lease.ts sets it
const KEY = 4_242_001; // a key of the test's own, on a database of its own

const leases: LeaderLease[] = [];
function lease(databaseUrl: string, nodeId: string) {
  const work = { running: false };
  const l = new LeaderLease({
    databaseUrl,
    lockKey: KEY,
    role: "test",
    nodeId,
    retryMs: RETRY_MS,
    lead: () => ((work.running = true), () => void (work.running = false)),
  });
  leases.push(l);
  l.start();
  return { lease: l, work };
}
afterEach(async () => void (await Promise.all(leases.splice(0).map((l) => l.stop()))));

describe("the leader lease on SQLite", () => {
  let db: TestDatabase;
  afterAll(async () => await db?.drop());

  it("leads at once: there is one node", async () => {
    db = await createTestDatabase("sqlite");
    const { lease: l, work } = lease(db.url, "only");
    await eventually(
      async () => l.leading && work.running,
      (t) => t,
      "the lone node leading",
      5_000,
    );
  });
});

if (process.env.TEST_DATABASE_URL) {
  describe("the leader lease on PostgreSQL", () => {
    let db: TestDatabase;
    let holder: ChildProcess | null = null;
    let printed = "";
    afterAll(async () => {
      holder?.kill("SIGCONT");
      holder?.kill("SIGKILL");
      await db?.drop();
    });
    const holders = async () =>
      (
        (await rawSql(
          db,
          `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND l.objid = $1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          [KEY],
        )) as { name: string }[]
      ).map((r) => r.name);

    it("a holder that stops talking loses the lock within the idle limit, and the other node takes over", async () => {
      db = await createTestDatabase("postgres");
      holder = spawn(
        process.execPath,
        ["--import", "tsx", join(import.meta.dirname, "..", "testing", "hold-lease.ts")],
        {
          env: {
            ...process.env,
            LEASE_DATABASE_URL: db.url,
            LEASE_KEY: String(KEY),
            LEASE_RETRY_MS: String(RETRY_MS),
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      holder.stdout!.on("data", (d) => (printed += d));
      holder.stderr!.on("data", (d) => (printed += d));
      await eventually(
        async () => printed,
        (p) => p.includes("leading"),
        "the child holding the lease",
        30_000,
      );
      const other = lease(db.url, "other");

      // A live holder keeps the lock well past the idle limit: its checks keep the session busy.
      await sleep(IDLE_LIMIT_MS * 3);
      expect(other.lease.leading).toBe(false);
      expect(await holders()).toEqual(["podwatch-test:holder"]);

      holder.kill("SIGSTOP"); // its socket stays open, as a frozen VM's or a partitioned node's does
      const frozenAt = Date.now();
      await eventually(
        async () => other.lease.leading,
        (t) => t,
        "the other node taking over",
        10_000,
      );
      // The idle limit, then the other node's next try (and some slack for a busy machine).
      expect(Date.now() - frozenAt).toBeLessThan(IDLE_LIMIT_MS + RETRY_MS + 2_000);
      expect(await holders()).toEqual(["podwatch-test:other"]);

      holder.kill("SIGCONT");
      await eventually(
        async () => printed,
        (p) => p.includes("stopped"),
        "the woken holder stopping its work",
        10_000,
      );
      await sleep(RETRY_MS * 3);
      expect(await holders()).toEqual(["podwatch-test:other"]);
      expect(other.work.running).toBe(true);
    });
  });
}
