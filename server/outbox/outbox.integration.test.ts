// The durable outbox against a real server and database: every committed append
// reaches the consumers once, in order, with the inbox changes it made; a
// consumer that fails gets the row again; rows written before a restart are
// handed over after it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../start-server";
import { agentPod, api, startServerOn } from "../testing/test-server";
import { createTestDatabase, rawSql, testProviders, type TestDatabase } from "../testing/test-databases";
import { OutboxDispatcher, type OutboxBatch, type OutboxConsumer } from "./outbox";

const recorder = (fail = 0): OutboxConsumer & { batches: OutboxBatch[]; failures: number } => {
  const c = {
    name: "recorder",
    batches: [] as OutboxBatch[],
    failures: 0,
    async take(batch: OutboxBatch) {
      if (c.failures < fail) {
        c.failures++;
        throw new Error("the consumer is down");
      }
      c.batches.push(batch);
    },
  };
  return c;
};

const start = (db: TestDatabase, outboxConsumers: OutboxConsumer[] = []) =>
  startServerOn(db, {}, { outboxConsumers });

const block = (planId: string, verdict: "BLOCK" | "APPROVE") => ({
  type: "plan.review",
  actor: "guard",
  role: "contract_guardian",
  body: { verdict, rationale: "scope creep", planId },
});
const note = (text: string) => ({ type: "note", actor: "guard", body: { kind: "STATUS", text } });

describe.each(testProviders())("the outbox on %s", (provider) => {
  let db: TestDatabase;
  let server: RunningServer;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
    server = await start(db);
  });
  afterAll(async () => {
    await server.close();
    await db.drop();
  });

  it("hands every committed seq over once, in order, with how the inbox changed", async () => {
    const consumer = recorder();
    server.app.outbox.register(consumer);
    const { podId } = await agentPod(server.url, "outbox", { guard: "contract_guardian" });
    const post = (events: unknown[]) => api(server.url, "POST", `/api/v1/pods/${podId}/events`, { events });
    expect((await post([block("p1", "BLOCK")])).status).toBe(201);
    expect((await post([note("one"), note("two")])).status).toBe(201);
    expect((await post([block("p1", "APPROVE")])).status).toBe(201);
    // Concurrent appends share transactions (group commit): still one row per pod per transaction, no gap, no overlap.
    await Promise.all(Array.from({ length: 20 }, (_, i) => post([note(`n${i}`)])));
    await server.app.outbox.drain();

    const mine = consumer.batches.filter((b) => b.podId === podId);
    const head = (await api(server.url, "GET", `/api/v1/pods/${podId}/state`)).body.seq as number;
    const covered = mine.flatMap((b) =>
      Array.from({ length: b.toSeq - b.fromSeq + 1 }, (_, i) => b.fromSeq + i),
    );
    expect(covered).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    const opened = mine.flatMap((b) => b.opened.map((item) => item.id));
    const closed = mine.flatMap((b) => b.closed);
    expect(opened).toEqual(["plan:p1"]);
    expect(closed).toEqual(["plan:p1"]);
    expect(mine.find((b) => b.opened.length)!.opened[0]).toMatchObject({
      kind: "plan_blocked",
      subject: { kind: "plan", id: "p1" },
    });
    expect(await rawSql(db, "SELECT id FROM outbox")).toEqual([]);
  });

  it("hands a row over again when a consumer failed, once its lease ends", async () => {
    await server.app.outbox.stop();
    const flaky = recorder(2);
    const dispatcher = new OutboxDispatcher(server.app.store, server.app.bus, { leaseMs: 50, pollMs: 20 });
    dispatcher.register(flaky);
    dispatcher.start();
    try {
      const { podId } = await agentPod(server.url, "flaky", { guard: "contract_guardian" });
      await api(server.url, "POST", `/api/v1/pods/${podId}/events`, { events: [block("p2", "BLOCK")] });
      await expect
        .poll(() => flaky.batches.some((b) => b.opened.some((i) => i.id === "plan:p2")), { timeout: 5000 })
        .toBe(true);
      expect(flaky.failures).toBe(2);
      await dispatcher.drain();
      await expect
        .poll(async () => (await rawSql(db, "SELECT id FROM outbox")).length, { timeout: 5000 })
        .toBe(0);
    } finally {
      await dispatcher.stop();
      server.app.outbox.start();
    }
  });

  it("drains what committed while a run was under way, even when its follow-up waits for the gap", async () => {
    await server.app.outbox.stop();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = recorder();
    const take = slow.take.bind(slow);
    slow.take = async (batch, run) => {
      await gate;
      return take(batch, run);
    };
    const dispatcher = new OutboxDispatcher(server.app.store, server.app.bus, { minGapMs: 60_000 });
    dispatcher.register(slow);
    dispatcher.start();
    try {
      const { podId } = await agentPod(server.url, "drained", { guard: "contract_guardian" });
      const post = (events: unknown[]) => api(server.url, "POST", `/api/v1/pods/${podId}/events`, { events });
      const first = dispatcher.drain(); // a run that claims the pod's first rows and waits in the consumer
      await expect.poll(async () => (await rawSql(db, "SELECT id FROM outbox")).length).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 100)); // the run has claimed them
      expect((await post([note("after the run began")])).status).toBe(201);
      const drained = Promise.all([first, dispatcher.drain()]);
      release();
      await drained;
      const head = (await api(server.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount as number;
      const covered = slow.batches.filter((b) => b.podId === podId).map((b) => b.toSeq);
      expect(Math.max(0, ...covered)).toBe(head);
    } finally {
      release();
      await dispatcher.stop();
      server.app.outbox.start();
    }
  });

  it("keeps rows across a restart and hands them over after it", async () => {
    await server.app.outbox.stop(); // nothing takes the rows now: they wait in the table
    const { podId } = await agentPod(server.url, "restart", { guard: "contract_guardian" });
    await api(server.url, "POST", `/api/v1/pods/${podId}/events`, { events: [block("p3", "BLOCK")] });
    expect((await rawSql(db, "SELECT id FROM outbox")).length).toBeGreaterThan(0);
    await server.close();

    const consumer = recorder();
    server = await start(db, [consumer]);
    await server.app.outbox.drain();
    const mine = consumer.batches.filter((b) => b.podId === podId);
    expect(mine.flatMap((b) => b.opened.map((i) => i.id))).toEqual(["plan:p3"]);
    expect(mine[0]!.fromSeq).toBe(1);
  });
});
