// Background work exactly once across nodes: two real servers in this process on one
// database. Only one is the timekeeper (the holder of its advisory lock, as PostgreSQL itself
// reports); stopping it hands the role over; a deadline and a staleness episode are appended
// once with both nodes up; a burst of events reaches a webhook receiver once each; a delivery
// whose node dies mid-attempt is delivered by the other. SQLite has one node: it always leads.
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "./start-server";
import { agentPod, api, startServerOn } from "./testing/test-server";
import { createTestDatabase, rawSql, type TestDatabase } from "./testing/test-databases";
import { eventually, sleep } from "./testing/eventually";
import { isTimekeeper, TIMEKEEPER_LOCK } from "./deadlines/start-deadlines";
import { WebhookReceiver } from "./testing/webhook-receiver";

const FAST = {
  PODWATCH_DEADLINE_MIN_MS: "100",
  PODWATCH_WATCHDOG_MINUTE_MS: "200",
  PODWATCH_WEBHOOK_ALLOW_PRIVATE: "1",
};
const RETRY_MS = 200;

const events = async (base: string, podId: string, type: string) =>
  (await api(base, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events.filter(
    (e: { type: string }) => e.type === type,
  );
const post = (base: string, podId: string, token: string, actor: string, type: string, body: object) =>
  api(base, "POST", `/api/v1/pods/${podId}/events`, { type, actor, body }, { token });
const checkpoint = (note: string) => ({
  id: randomUUID(),
  type: "checkpoint",
  actor: "impl",
  body: { completed: [note], next: [], blocked: [] },
});

/** An escalation whose deadline answers it in `ms`. */
async function escalationDue(base: string, podId: string, token: string, ms: number) {
  const at = new Date(Date.now() + ms).toISOString();
  const asked = await post(base, podId, token, "impl", "escalation", {
    escalationId: "e1",
    kind: "intent",
    question: "Ship?",
    options: ["Yes", "No"],
    deadline: { at, then: "answer", answer: "Yes" },
  });
  expect(asked.status).toBe(201);
  return at;
}

describe("background work on one SQLite node", () => {
  let db: TestDatabase;
  let node: RunningServer;
  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    node = await startServerOn(db, FAST);
  });
  afterAll(async () => (await node?.close(), await db?.drop()));

  it("is always the timekeeper, and its deadline passes once", async () => {
    await eventually(
      async () => isTimekeeper(node.app),
      (t) => t,
      "the timekeeper",
    );
    const { podId, tokens } = await agentPod(node.url, "alone", { impl: "implementer" });
    await escalationDue(node.url, podId, tokens["impl"]!, 1500);
    await eventually(
      () => events(node.url, podId, "deadline.passed"),
      (l) => l.length > 0,
      "deadline.passed",
    );
    await sleep(500);
    expect(await events(node.url, podId, "deadline.passed")).toHaveLength(1);
  });
});

if (process.env.TEST_DATABASE_URL) {
  describe("background work on two nodes on one PostgreSQL", () => {
    let db: TestDatabase;
    const running = new Set<RunningServer>();
    const receivers: WebhookReceiver[] = [];
    const start = async (nodeId: string, webhookLeaseMs?: number) => {
      const node = await startServerOn(
        db,
        { ...FAST, PODWATCH_NODE_ID: nodeId },
        { background: { timekeeperRetryMs: RETRY_MS, webhookLeaseMs } },
      );
      running.add(node);
      return node;
    };
    const close = async (node: RunningServer) => (running.delete(node), await node.close());
    const receiver = async () => {
      const r = new WebhookReceiver();
      receivers.push(r);
      await r.up();
      return r;
    };
    /** The application_name of the session holding the timekeeper's lock, as PostgreSQL sees it. */
    const holders = async () =>
      (
        (await rawSql(
          db,
          `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
           WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1
             AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          [TIMEKEEPER_LOCK],
        )) as { name: string }[]
      ).map((r) => r.name);
    /** Waits until exactly one of the nodes leads; returns it and the other. */
    const roles = async (a: RunningServer, b: RunningServer) => {
      await eventually(
        async () => [isTimekeeper(a.app), isTimekeeper(b.app)],
        (l) => l.filter(Boolean).length === 1,
        "one timekeeper",
      );
      return isTimekeeper(a.app) ? { keeper: a, other: b } : { keeper: b, other: a };
    };

    beforeAll(async () => void (db = await createTestDatabase("postgres")));
    afterEach(async () => {
      for (const node of [...running]) await close(node);
      for (const r of receivers.splice(0)) await r.down();
    });
    afterAll(async () => await db?.drop());

    it("only one node is the timekeeper; stopping it hands the role to the other, whose scan passes a deadline once", async () => {
      const [a, b] = await Promise.all([start("node-a"), start("node-b")]);
      const { keeper, other } = await roles(a, b);
      expect(await holders()).toEqual([`podwatch-timekeeper:${keeper.app.config.nodeId}`]);
      await sleep(RETRY_MS * 5); // the other keeps trying, and keeps failing
      expect([isTimekeeper(keeper.app), isTimekeeper(other.app)]).toEqual([true, false]);

      const { podId, tokens } = await agentPod(keeper.url, "handover", { impl: "implementer" });
      await escalationDue(keeper.url, podId, tokens["impl"]!, 2500);
      const stoppedAt = Date.now();
      await close(keeper);
      await eventually(
        async () => isTimekeeper(other.app),
        (t) => t,
        "the other node taking over",
        5_000,
      );
      expect(Date.now() - stoppedAt).toBeLessThan(5_000);
      expect(await holders()).toEqual([`podwatch-timekeeper:${other.app.config.nodeId}`]);
      const passed = await eventually(
        () => events(other.url, podId, "deadline.passed"),
        (l) => l.length > 0,
        "deadline.passed",
      );
      expect(passed[0]).toMatchObject({
        actor: "podwatch",
        body: { itemId: "escalation:e1", outcome: "answered", answer: "Yes" },
      });
      await sleep(800);
      expect(await events(other.url, podId, "deadline.passed")).toHaveLength(1);
    });

    it("with both nodes up, a deadline set through the other node passes once, and a staleness episode is flagged once", async () => {
      const { other } = await roles(...(await Promise.all([start("node-a"), start("node-b")])));
      const { podId, tokens } = await agentPod(other.url, "both-up", { impl: "implementer", chair: "chair" });
      const say = (actor: string, type: string, body: object) =>
        post(other.url, podId, tokens[actor]!, actor, type, body);
      await escalationDue(other.url, podId, tokens["impl"]!, 2000);
      await eventually(
        () => events(other.url, podId, "deadline.passed"),
        (l) => l.length > 0,
        "deadline.passed",
      );
      // A cadence minute of 200 ms: the pod's 5 minutes pass in a second.
      expect(
        (await say("chair", "pod.scope_agreed", { scope: "s", successCriteria: ["c"], cadenceMinutes: 5 }))
          .status,
      ).toBe(201);
      expect((await say("chair", "pod.started", {})).status).toBe(201);
      expect((await say("impl", "task.added", { taskId: "a", description: "a" })).status).toBe(201);
      expect((await say("impl", "task.updated", { taskId: "a", status: "in_progress" })).status).toBe(201);
      await eventually(
        () => events(other.url, podId, "agent.stale"),
        (l) => l.length > 0,
        "agent.stale",
      );
      await sleep(1200); // still one episode while it stays silent, and one deadline outcome
      expect(await events(other.url, podId, "agent.stale")).toHaveLength(1);
      expect(await events(other.url, podId, "deadline.passed")).toHaveLength(1);
    });

    it("a burst of events through both nodes reaches a webhook receiver once each, every signature valid", async () => {
      const [a, b] = await Promise.all([start("node-a"), start("node-b")]);
      const rx = await receiver();
      const { podId, tokens } = await agentPod(a.url, "burst", { impl: "implementer" });
      const created = await api(a.url, "POST", `/api/v1/pods/${podId}/webhooks`, {
        url: rx.url,
        format: "standard",
        events: ["checkpoint"],
      });
      expect(created.status).toBe(201);
      rx.secret = created.body.secret;
      const appends = Array.from({ length: 40 }, (_, i) =>
        api(
          [a, b][i % 2]!.url,
          "POST",
          `/api/v1/pods/${podId}/events`,
          { events: [checkpoint(`n${i}`)] },
          { token: tokens["impl"]! },
        ),
      );
      expect((await Promise.all(appends)).map((r) => r.status)).toEqual(Array(40).fill(201));
      await eventually(
        async () => rx.accepted.length,
        (n) => n >= 40,
        "40 deliveries",
      );
      await sleep(1500); // a second delivery of any message would show up by now
      expect([rx.accepted.length, rx.duplicates(), rx.badSignatures, rx.arrived]).toEqual([40, 0, 0, 40]);
      const log = (
        await api(b.url, "GET", `/api/v1/pods/${podId}/webhooks/${created.body.id}/deliveries?limit=100`)
      ).body.deliveries as { status: string; attempts: number }[];
      expect(log).toHaveLength(40);
      expect(log.every((d) => d.status === "delivered" && d.attempts === 1)).toBe(true);
    });

    it("a delivery whose node dies mid-attempt is delivered by the other node, once", async () => {
      const a = await start("node-a", 800);
      const rx = await receiver();
      const { podId, tokens } = await agentPod(a.url, "dies", { impl: "implementer" });
      const created = await api(a.url, "POST", `/api/v1/pods/${podId}/webhooks`, {
        url: rx.url,
        format: "standard",
        events: ["checkpoint"],
      });
      rx.secret = created.body.secret;
      rx.holding = true;
      expect(
        (
          await api(
            a.url,
            "POST",
            `/api/v1/pods/${podId}/events`,
            { events: [checkpoint("held")] },
            { token: tokens["impl"]! },
          )
        ).status,
      ).toBe(201);
      await eventually(
        async () => rx.held.length,
        (n) => n === 1,
        "node A's attempt",
      );
      rx.holding = false;
      const b = await start("node-b");
      const dying = close(a); // A stops claiming; its attempt hangs on, past its lease
      await eventually(
        async () => rx.accepted,
        (l) => l.length === 1,
        "node B's delivery",
      );
      expect(rx.accepted).toEqual([rx.held[0]!.id]); // the same webhook-id: a receiver dedupes on it
      rx.held[0]!.answer(500); // A's late failure must not schedule the delivered row again
      await dying;
      await sleep(1500);
      expect([rx.accepted.length, rx.arrived, rx.badSignatures]).toEqual([1, 2, 0]);
      const log = (await api(b.url, "GET", `/api/v1/pods/${podId}/webhooks/${created.body.id}/deliveries`))
        .body.deliveries as { status: string; attempts: number; lastStatus: number }[];
      expect(log).toEqual([expect.objectContaining({ status: "delivered", attempts: 1, lastStatus: 204 })]);
    });
  });
}
