// The runner over a real table (webhook deliveries, webhook-jobs.ts) on SQLite and PostgreSQL,
// with a real receiver on loopback: two runners (on PostgreSQL two stores, as two nodes) share
// the due rows and send each once; a failure is retried on the schedule and given up when it
// ends; a stop mid-attempt gives the row back uncounted.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../db/open-store";
import type { TapeStore } from "../db/tape-store";
import { JobRunner } from "./job-runner";
import { webhookJobs, type WebhookJobOptions } from "../webhooks/webhook-jobs";
import { newWebhookSecret } from "../webhooks/signature";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";
import { WebhookReceiver } from "../testing/webhook-receiver";
import { eventually } from "../testing/eventually";

/** A day of failures lasts ~3 s; the retries 0.2 ms … 1.25 s (as webhooks.integration.test.ts). */
const SCALE = 3 / 86_400;

describe.each(testProviders())("the job runner over webhook deliveries on %s", (provider) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  /** `refusing`: the receiver knows no secret, so it answers every delivery 401. */
  async function setUp(refusing = false) {
    const db: TestDatabase = await createTestDatabase(provider);
    cleanup.push(() => db.drop());
    const store = await openStore(db.url);
    cleanup.push(() => store.close());
    // A second node on PostgreSQL; SQLite serves one process, so its two runners share the store.
    const other = provider === "postgres" ? await openStore(db.url) : store;
    if (other !== store) cleanup.push(() => other.close());
    const rx = new WebhookReceiver();
    await rx.up();
    cleanup.push(() => rx.down());
    const secret = newWebhookSecret();
    rx.secret = refusing ? "" : secret;
    const podId = randomUUID();
    const endpointId = randomUUID();
    const now = new Date().toISOString();
    await store.prisma.webhookEndpoint.create({
      data: {
        id: endpointId,
        podId,
        url: rx.url,
        format: "standard",
        events: '["checkpoint"]',
        secret,
        createdAt: now,
        createdBy: "test",
      },
    });
    const addDeliveries = (n: number) =>
      store.prisma.webhookDelivery.createMany({
        data: Array.from({ length: n }, (_, i) => ({
          id: randomUUID(),
          endpointId,
          podId,
          messageId: `msg_${i}`,
          type: "checkpoint",
          payload: JSON.stringify({ i }),
          status: "pending",
          nextAttemptAt: now,
          createdAt: now,
        })),
      });
    const disabled: string[] = [];
    const runner = (on: TapeStore, over: Partial<WebhookJobOptions> = {}) => {
      const r = new JobRunner(
        webhookJobs(on, {
          allowPrivate: true,
          timeScale: SCALE,
          onDisabled: async (e) => void disabled.push(e.id),
          ...over,
        }),
      );
      cleanup.push(() => r.stop());
      r.start();
      return r;
    };
    const rows = () => store.prisma.webhookDelivery.findMany({ orderBy: { messageId: "asc" } });
    return { store, other, rx, endpointId, addDeliveries, runner, rows, disabled };
  }

  it("two runners share the due rows: every delivery is sent once and recorded once", async () => {
    const t = await setUp();
    await t.addDeliveries(40);
    t.runner(t.store, { concurrency: 3 });
    t.runner(t.other, { concurrency: 3 });
    await eventually(
      t.rows,
      (rows) => rows.every((r) => r.status === "delivered"),
      "every delivery delivered",
      30_000,
    );
    expect(t.rx.accepted.toSorted()).toEqual(Array.from({ length: 40 }, (_, i) => `msg_${i}`).toSorted());
    expect([t.rx.duplicates(), t.rx.badSignatures]).toEqual([0, 0]);
    expect((await t.rows()).map((r) => [r.attempts, r.lastStatus, r.claimedUntil])).toEqual(
      Array(40).fill([1, 204, null]),
    );
  });

  it("a failing delivery is retried on the schedule, then given up; a day of only failures disables the endpoint, once", async () => {
    const t = await setUp(true);
    await t.addDeliveries(1);
    t.runner(t.store);
    const [row] = await eventually(t.rows, (rows) => rows[0]?.status === "failed", "giving up", 30_000);
    // The first attempt and one for each of the schedule's seven retries.
    expect([row!.attempts, row!.lastStatus, row!.nextAttemptAt, row!.claimedUntil]).toEqual([
      8,
      401,
      null,
      null,
    ]);
    expect(t.rx.arrived).toBe(8);
    // The notice is posted first, then the endpoint disabled.
    const endpoint = () => t.store.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: t.endpointId } });
    await eventually(endpoint, (e) => !e.enabled, "the endpoint disabled");
    expect(t.disabled).toEqual([t.endpointId]);
  });

  it("a stop while an attempt is under way gives the row back: not counted, sent again by the next runner", async () => {
    const t = await setUp();
    t.rx.holding = true;
    await t.addDeliveries(1);
    const first = t.runner(t.store);
    await eventually(
      async () => t.rx.held.length,
      (n) => n === 1,
      "the held attempt",
    );
    const stopping = first.stop();
    t.rx.held[0]!.answer(503); // the attempt fails only once its runner is stopping: the runner's stop, not the receiver
    await stopping;
    const [row] = await t.rows();
    expect([row!.status, row!.attempts, row!.claimedUntil]).toEqual(["pending", 0, null]);
    t.rx.holding = false;
    t.runner(t.other);
    await eventually(t.rows, (rows) => rows[0]?.status === "delivered", "the delivery by the next runner");
    expect([(await t.rows())[0]!.attempts, t.rx.accepted]).toEqual([1, ["msg_0"]]);
  });
});
