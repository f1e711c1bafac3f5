// Outbound webhooks end to end: a real server, a real database, and a receiver on
// loopback that verifies every signature from the Standard Webhooks spec itself.
// It goes down (refused connections) and comes back, the server restarts in the
// middle of retrying, an endpoint that only fails is disabled with a notice in the
// inbox, SSRF is refused at creation and at connect time, and Slack gets Block Kit.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../config";
import { startServer, type RunningServer } from "../start-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";
import { agentPod, api, TEST_ADMIN_TOKEN } from "../testing/test-server";
import { verifyStandardWebhook as verify } from "../testing/webhook-receiver";

/** A day of failures lasts ~3 s; the retries 0.2 ms … 1.25 s. */
const SCALE = 3 / 86_400;

type Received = {
  id: string;
  type: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> } & Record<string, unknown>;
};

/** A receiver that can go down (closed: refused connections) and come back on the same port. */
class Receiver {
  received: Received[] = [];
  badSignatures = 0;
  secret = "";
  private server: Server | null = null;
  port = 0;

  async up() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        if (this.secret && !verify(this.secret, req.headers, text)) {
          this.badSignatures++;
          return void res.writeHead(401).end("bad signature");
        }
        this.received.push({
          id: String(req.headers["webhook-id"]),
          type: JSON.parse(text).type,
          body: JSON.parse(text),
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(this.port, "127.0.0.1", r));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async down() {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }

  get url() {
    return `http://127.0.0.1:${this.port}/hook`;
  }
  ids(type?: string) {
    return this.received.filter((r) => !type || r.type === type).map((r) => r.id);
  }
  duplicates() {
    const ids = this.ids();
    return ids.length - new Set(ids).size;
  }
}

/** A receiver that takes every request and answers none until it is closed (a hanging webhook target). */
async function hangingReceiver() {
  let arrived = 0;
  const held: (() => void)[] = [];
  const server = createServer((req, res) => {
    arrived++;
    held.push(() => res.writeHead(204).end());
    req.resume();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived: () => arrived,
    async close() {
      for (const release of held.splice(0)) release();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function until<T>(
  what: string,
  probe: () => Promise<T | null | false | undefined> | T | null | false | undefined,
  ms = 20_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const checkpoint = (note: string) => ({
  id: randomUUID(),
  type: "checkpoint",
  actor: "impl-1",
  body: { completed: [note], next: [], blocked: [] },
});

describe.each(testProviders())("webhooks on %s", (provider) => {
  let db: TestDatabase;
  let s: RunningServer;
  const env = (extra: Record<string, string> = {}) =>
    readConfig({
      DATABASE_URL: db.url,
      PORT: "0",
      HOST: "127.0.0.1",
      PODWATCH_DEMO: "0",
      PODWATCH_WEB: "0",
      PODWATCH_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      PODWATCH_AUTH_SECRET: "x".repeat(32),
      ...extra,
    });
  const start = (extra: Record<string, string> = {}) =>
    startServer(env({ PODWATCH_WEBHOOK_ALLOW_PRIVATE: "1", ...extra }), {
      knobs: { webhookTimeScale: SCALE },
    });
  const receivers: Receiver[] = [];
  const receiver = async () => {
    const r = new Receiver();
    receivers.push(r);
    await r.up();
    return r;
  };
  const deliveries = async (podId: string, endpointId: string) =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/webhooks/${endpointId}/deliveries?limit=100`)).body
      .deliveries as {
      status: string;
      attempts: number;
      messageId: string;
      lastError: string | null;
      lastStatus: number | null;
      type: string;
    }[];

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    s = await start();
  });
  afterAll(async () => {
    for (const r of receivers) await r.down();
    await s.close();
    await db.drop();
  });

  async function podWithEndpoint(rx: Receiver, events: string[], format = "standard", url = rx.url) {
    const { podId, tokens } = await agentPod(s.url, `hooks-${randomUUID().slice(0, 6)}`, {
      "impl-1": "implementer",
    });
    const created = await api(s.url, "POST", `/api/v1/pods/${podId}/webhooks`, { url, format, events });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    rx.secret = created.body.secret;
    const append = async (evs: unknown[]) =>
      expect(
        (
          await api(
            s.url,
            "POST",
            `/api/v1/pods/${podId}/events`,
            { events: evs },
            { token: tokens["impl-1"]! },
          )
        ).status,
      ).toBe(201);
    return { podId, endpointId: created.body.id as string, append };
  }

  it("signs every delivery per Standard Webhooks; the secret is shown once; a test message arrives", async () => {
    const rx = await receiver();
    const { podId, endpointId, append } = await podWithEndpoint(rx, ["checkpoint"]);
    const listed = await api(s.url, "GET", `/api/v1/pods/${podId}/webhooks`);
    expect(listed.body.webhooks).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(rx.secret.slice(6));
    await append([checkpoint("one"), checkpoint("two")]);
    await append([
      { ...checkpoint("three") },
      { id: randomUUID(), type: "note", actor: "impl-1", body: { kind: "STATUS", text: "not asked for" } },
    ]);
    await until("three checkpoints", () => rx.ids("checkpoint").length === 3);
    expect(rx.badSignatures).toBe(0);
    const first = rx.received[0]!.body;
    expect(first).toMatchObject({
      type: "checkpoint",
      data: { pod: { id: podId }, event: { type: "checkpoint", actor: "impl-1", podId } },
    });
    expect(Number.isNaN(Date.parse(first.timestamp))).toBe(false);
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/webhooks/${endpointId}/test`)).status).toBe(202);
    await until("the test message", () => rx.ids("webhook.test").length === 1);
    const log = await until("a delivered log", async () => {
      const d = await deliveries(podId, endpointId);
      return d.length === 4 && d.every((x) => x.status === "delivered") && d;
    });
    expect(log.every((d) => d.attempts === 1 && d.lastStatus === 204)).toBe(true);
    // A wrong secret on the receiver's side is caught by the same verification.
    expect(
      verify(
        "whsec_" + Buffer.from("not the secret at all, 24+ bytes").toString("base64"),
        {
          "webhook-id": "x",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": "v1,AAAA",
        },
        "{}",
      ),
    ).toBe(false);
  });

  it("a receiver that goes down gets every message once it is back, none twice; redeliver keeps the webhook-id", async () => {
    const rx = await receiver();
    const { podId, endpointId, append } = await podWithEndpoint(rx, ["checkpoint"]);
    await append([checkpoint("before")]);
    await until("the first", () => rx.received.length === 1);
    await rx.down();
    for (let i = 0; i < 5; i++) await append([checkpoint(`while down ${i}`)]);
    await until(
      "failed attempts while down",
      async () =>
        (await deliveries(podId, endpointId)).filter((d) => d.attempts >= 2 && d.status === "pending")
          .length === 5,
    );
    await rx.up();
    await until("every message", () => rx.ids("checkpoint").length >= 6);
    await new Promise((r) => setTimeout(r, 1500)); // any late retry would show up as a duplicate
    expect(rx.ids("checkpoint")).toHaveLength(6);
    expect(rx.duplicates()).toBe(0);
    const log = await deliveries(podId, endpointId);
    expect(log.every((d) => d.status === "delivered")).toBe(true);
    const failedFirst = log.find((d) => d.attempts > 1)!;
    expect(failedFirst).toBeTruthy();
    const again = await api(
      s.url,
      "POST",
      `/api/v1/pods/${podId}/webhooks/${endpointId}/deliveries/${(failedFirst as unknown as { id: string }).id}/redeliver`,
    );
    expect(again.status).toBe(202);
    await until("the redelivery", () => rx.ids().filter((id) => id === failedFirst.messageId).length === 2);
    const endpoint = (await api(s.url, "GET", `/api/v1/pods/${podId}/webhooks`)).body.webhooks[0];
    expect(endpoint).toMatchObject({ enabled: true, failingSince: null });
  });

  it("an endpoint deleted while its delivery is under way does not make the others' successes go out again", async () => {
    const fast = await receiver();
    const { podId, endpointId: fastId, append } = await podWithEndpoint(fast, ["checkpoint"]);
    // A second endpoint of the same pod whose receiver answers only once the test has deleted it.
    let arrived!: () => void;
    const arrival = new Promise<void>((r) => (arrived = r));
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const slow = createServer((req, res) => {
      arrived();
      void released.then(() => res.writeHead(204).end());
      req.resume();
    });
    await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
    try {
      const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`;
      const slowId = (
        await api(s.url, "POST", `/api/v1/pods/${podId}/webhooks`, {
          url: slowUrl,
          format: "standard",
          events: ["checkpoint"],
        })
      ).body.id as string;
      await append([checkpoint("both")]);
      await arrival;
      expect((await api(s.url, "DELETE", `/api/v1/pods/${podId}/webhooks/${slowId}`)).status).toBe(200);
      release();
      const [d] = await until("the fast endpoint's delivery recorded", async () => {
        const log = await deliveries(podId, fastId);
        return log.length === 1 && log[0]!.status === "delivered" && log;
      });
      expect(d!.attempts).toBe(1);
      expect(fast.ids("checkpoint")).toHaveLength(1);
    } finally {
      release();
      slow.closeAllConnections();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });

  it("a receiver answering with a NUL byte or other control characters is recorded (cleaned), and the round's other successes once", async () => {
    const fine = await receiver();
    const { podId, endpointId: fineId, append } = await podWithEndpoint(fine, ["checkpoint"]);
    // Two more endpoints of the same pod: one answers 200 "ok\0…", one 500 with a NUL and a C1 control.
    const answers = [
      { status: 200, body: "ok\0\u0001\u001b[31m\ttab\r\nline" },
      { status: 500, body: "boom\0\u0085end" },
    ];
    const odd = answers.map(({ status, body }) =>
      createServer((req, res) => req.resume().on("end", () => res.writeHead(status).end(body))),
    );
    for (const o of odd) await new Promise<void>((r) => o.listen(0, "127.0.0.1", r));
    try {
      const [okId, failId] = await Promise.all(
        odd.map(
          async (o) =>
            (
              await api(s.url, "POST", `/api/v1/pods/${podId}/webhooks`, {
                url: `http://127.0.0.1:${(o.address() as AddressInfo).port}/hook`,
                events: ["checkpoint"],
              })
            ).body.id as string,
        ),
      );
      await append([checkpoint("odd answers")]);
      const [ok] = await until("the NUL answer recorded as delivered", async () => {
        const log = await deliveries(podId, okId!);
        return log[0]?.status === "delivered" && log;
      });
      expect(ok!.attempts).toBe(1);
      expect((ok as unknown as { lastResponse: string }).lastResponse).toBe("ok[31m\ttab\nline");
      const [failed] = await until("the failing one retried with attempts rising", async () => {
        const log = await deliveries(podId, failId!);
        return (log[0]?.attempts ?? 0) >= 3 && log;
      });
      expect(failed!.lastStatus).toBe(500);
      expect((failed as unknown as { lastResponse: string }).lastResponse).toBe("boomend");
      const [d] = await until("the well-behaved endpoint recorded", async () => {
        const log = await deliveries(podId, fineId);
        return log[0]?.status === "delivered" && log;
      });
      expect(d!.attempts).toBe(1);
      await new Promise((r) => setTimeout(r, 1000)); // a round rolled back would send it again
      expect(fine.ids("checkpoint")).toHaveLength(1);
    } finally {
      for (const o of odd) {
        o.closeAllConnections();
        await new Promise<void>((r) => o.close(() => r()));
      }
    }
  });

  it("Send a test: one per endpoint per 10 s; another at once is refused with 429 and Retry-After", async () => {
    const rx = await receiver();
    const { podId, endpointId } = await podWithEndpoint(rx, ["checkpoint"]);
    const other = await api(s.url, "POST", `/api/v1/pods/${podId}/webhooks`, {
      url: rx.url,
      events: ["checkpoint"],
    });
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/webhooks/${endpointId}/test`)).status).toBe(202);
    const again = await Promise.all(
      [0, 1, 2].map(() => api(s.url, "POST", `/api/v1/pods/${podId}/webhooks/${endpointId}/test`)),
    );
    for (const r of again) {
      expect(r.status).toBe(429);
      expect(r.body.error?.code ?? r.body.code).toBe("webhook_test_too_soon");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(10);
    }
    // Another endpoint has its own allowance.
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/webhooks/${other.body.id}/test`)).status).toBe(
      202,
    );
    expect((await deliveries(podId, endpointId)).filter((d) => d.type === "webhook.test")).toHaveLength(1);
  });

  it("one endpoint's backlog cannot fill a round: another endpoint's due delivery goes out while the first one's receiver hangs", async () => {
    const tarpit = await hangingReceiver();
    try {
      const rx = await receiver();
      rx.secret = "";
      const { podId, endpointId: quickId } = await podWithEndpoint(rx, ["checkpoint"]);
      rx.secret = "";
      const slowId = (
        await api(s.url, "POST", `/api/v1/pods/${podId}/webhooks`, {
          url: `${tarpit.url}/hook`,
          events: ["checkpoint"],
        })
      ).body.id as string;
      const now = Date.now();
      const row = (endpointId: string, i: number) => ({
        id: randomUUID(),
        endpointId,
        podId,
        messageId: `msg_backlog_${endpointId}_${i}`,
        type: "checkpoint",
        payload: JSON.stringify({ type: "checkpoint", timestamp: new Date().toISOString(), data: {} }),
        status: "pending",
        nextAttemptAt: new Date(now - 60_000 + i).toISOString(),
        createdAt: new Date(now).toISOString(),
      });
      // 40 older rows for the hanging endpoint, then one for the quick one: one statement, so a round sees all of them.
      await s.app.store.prisma.webhookDelivery.createMany({
        data: [...Array.from({ length: 40 }, (_, i) => row(slowId, i)), row(quickId, 1000)],
      });
      await until(
        "the quick endpoint's delivery while the other hangs",
        () => rx.received.length === 1,
        10_000,
      );
      expect(tarpit.arrived()).toBeLessThanOrEqual(4);
    } finally {
      await tarpit.close();
    }
  });

  it("a pod whose receivers hang holds only its own slots: another pod's new delivery goes out at once, not after their timeout", async () => {
    const tarpit = await hangingReceiver();
    try {
      const { podId: slowPod, append: appendSlow } = await podWithEndpoint(await receiver(), ["note"]);
      for (let i = 0; i < 3; i++)
        await api(s.url, "POST", `/api/v1/pods/${slowPod}/webhooks`, {
          url: `${tarpit.url}/hook/${i}`,
          events: ["checkpoint"],
        });
      await appendSlow([checkpoint("slow 1"), checkpoint("slow 2")]);
      await until("the hanging attempts under way", () => tarpit.arrived() >= 3);
      // Now another pod's event: its delivery must not wait for the hanging attempts' 10 s timeout.
      const rx = await receiver();
      const { append } = await podWithEndpoint(rx, ["checkpoint"]);
      const t0 = Date.now();
      await append([checkpoint("quick")]);
      await until("the other pod's delivery", () => rx.received.length === 1, 9_000);
      expect(Date.now() - t0).toBeLessThan(3_000);
    } finally {
      await tarpit.close();
    }
  });

  it("two pods with 20 hanging endpoints each and a backlog: a third pod's delivery goes out within 1 s of its event", async () => {
    const tarpits = [await hangingReceiver(), await hangingReceiver()];
    const hung: string[] = [];
    try {
      for (const tarpit of tarpits) {
        const hook = (i: number) => `${tarpit.url}/hook/${i}`;
        const { podId, endpointId, append } = await podWithEndpoint(
          await receiver(),
          ["checkpoint"],
          "standard",
          hook(0),
        );
        hung.push(`/api/v1/pods/${podId}/webhooks/${endpointId}`);
        for (let i = 1; i < 20; i++) {
          const made = await api(s.url, "POST", `/api/v1/pods/${podId}/webhooks`, {
            url: hook(i),
            events: ["checkpoint"],
          });
          expect(made.status).toBe(201);
          hung.push(`/api/v1/pods/${podId}/webhooks/${made.body.id}`);
        }
        await append([1, 2, 3, 4].map((i) => checkpoint(`hung ${i}`)));
      }
      // Every endpoint of both pods has an attempt hanging (and more due behind it) before the third pod's event.
      await until("the hanging attempts under way", () => tarpits.every((t) => t.arrived() >= 16));
      const rx = await receiver();
      const { append } = await podWithEndpoint(rx, ["checkpoint"]);
      const t0 = Date.now();
      await append([checkpoint("quick")]);
      await until("the third pod's delivery", () => rx.received.length === 1, 15_000);
      expect(Date.now() - t0).toBeLessThan(1_000);
    } finally {
      for (const tarpit of tarpits) await tarpit.close();
      // Their 160 deliveries would go on retrying through the file's later tests, on this one server.
      for (const path of hung) await api(s.url, "DELETE", path);
    }
  });

  it("delivered and failed deliveries older than 7 days are pruned (from the worker), keeping the newest 10 of each endpoint and anything pending", async () => {
    const rx = await receiver();
    const { podId, endpointId: busyId } = await podWithEndpoint(rx, ["checkpoint"]);
    const quietId = (
      await api(s.url, "POST", `/api/v1/pods/${podId}/webhooks`, { url: rx.url, events: ["checkpoint"] })
    ).body.id as string;
    const day = 86_400_000;
    const at = (daysAgo: number, i = 0) => new Date(Date.now() - daysAgo * day - i * 1000).toISOString();
    const row = (
      endpointId: string,
      name: string,
      status: string,
      createdAt: string,
      lastAttemptAt: string | null,
    ) => ({
      id: randomUUID(),
      endpointId,
      podId,
      messageId: `msg_prune_${name}`,
      type: "checkpoint",
      payload: "{}",
      status,
      attempts: lastAttemptAt ? 1 : 0,
      nextAttemptAt: status === "pending" ? at(-1) : null,
      createdAt,
      lastAttemptAt,
    });
    await s.app.store.prisma.webhookDelivery.createMany({
      data: [
        ...[0, 1, 2].map((i) => row(busyId, `recent-${i}`, "delivered", at(1, i), at(1, i))),
        ...Array.from({ length: 20 }, (_, i) =>
          row(busyId, `old-${i}`, i % 2 ? "failed" : "delivered", at(8, i), i % 4 === 3 ? null : at(8, i)),
        ),
        row(busyId, "old-but-redelivered", "delivered", at(30), at(2)),
        row(busyId, "old-pending", "pending", at(30), at(9)),
        ...[0, 1].map((i) => row(quietId, `quiet-old-${i}`, "delivered", at(20, i), at(20, i))),
      ],
    });
    await s.close();
    s = await start();
    const names = async (endpointId: string) =>
      (
        await s.app.store.prisma.webhookDelivery.findMany({
          where: { endpointId },
          select: { messageId: true },
        })
      )
        .map((r) => r.messageId.replace("msg_prune_", ""))
        .sort();
    const busy = await until("the pruning", async () => {
      const n = await names(busyId);
      return n.length < 25 && n;
    });
    // The newest 10 by creation (3 recent + 7 of the old) stay; so do the redelivered one (recent attempt) and the pending one.
    expect(busy).toEqual(
      [
        "old-0",
        "old-1",
        "old-2",
        "old-3",
        "old-4",
        "old-5",
        "old-6",
        "old-but-redelivered",
        "old-pending",
        "recent-0",
        "recent-1",
        "recent-2",
      ].sort(),
    );
    expect(await names(quietId)).toEqual(["quiet-old-0", "quiet-old-1"]);
  });

  it("a server restart in the middle of retrying loses nothing and doubles nothing", async () => {
    const rx = await receiver();
    const { podId, endpointId, append } = await podWithEndpoint(rx, [
      "checkpoint",
      "inbox.opened",
      "inbox.closed",
    ]);
    await rx.down();
    for (let i = 0; i < 4; i++) await append([checkpoint(`restart ${i}`)]);
    await until(
      "retries under way",
      async () => (await deliveries(podId, endpointId)).filter((d) => d.attempts >= 1).length === 4,
    );
    await s.close();
    await rx.up();
    s = await start();
    await until("every message after the restart", () => rx.ids("checkpoint").length >= 4);
    await append([checkpoint("after restart")]);
    await until("the new one too", () => rx.ids("checkpoint").length >= 5);
    await new Promise((r) => setTimeout(r, 1500));
    expect(rx.ids("checkpoint")).toHaveLength(5);
    expect(rx.duplicates()).toBe(0);
    expect(rx.badSignatures).toBe(0);
  });

  it("an endpoint that only fails for a day (scaled) is disabled, once, and the pod's admins find a notice in the inbox", async () => {
    const rx = await receiver();
    // A URL whose path and query are a secret (a Slack incoming webhook, ?token=): they stay off the tape.
    const { podId, endpointId, append } = await podWithEndpoint(
      rx,
      ["checkpoint"],
      "standard",
      `${rx.url}/T0SECRETPATH?token=s3cretQuery`,
    );
    await rx.down();
    await append([checkpoint("into the void")]);
    const endpoint = await until(
      "the endpoint disabled",
      async () => {
        const e = (await api(s.url, "GET", `/api/v1/pods/${podId}/webhooks`)).body.webhooks[0];
        return e.enabled === false && e;
      },
      15_000,
    );
    expect(endpoint.disabledReason).toMatch(/only failures since/);
    expect(endpoint.endpointId ?? endpointId).toBe(endpointId);
    const state = await until("the notice", async () => {
      const st = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
      return st.inbox.some((i: { kind: string }) => i.kind === "notice") && st;
    });
    const notice = state.inbox.find((i: { kind: string; title: string }) => i.kind === "notice");
    expect(notice.title).toContain(`127.0.0.1:${rx.port}/…`);
    expect(notice.title).toContain(endpointId.slice(0, 8));
    const tape = (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events as {
      type: string;
      actor: string;
      body: unknown;
    }[];
    expect(tape.filter((e) => e.type === "notice.posted")).toEqual([
      expect.objectContaining({ actor: "podwatch" }),
    ]);
    const posted = JSON.stringify(tape.find((e) => e.type === "notice.posted")!.body);
    for (const secret of ["/hook", "T0SECRETPATH", "token", "s3cretQuery"])
      expect(posted).not.toContain(secret);
    // A disabled endpoint is sent nothing new; enabling it starts afresh.
    await append([checkpoint("while disabled")]);
    await new Promise((r) => setTimeout(r, 500));
    expect((await deliveries(podId, endpointId)).every((d) => d.status === "failed")).toBe(true);
    const enabled = await api(s.url, "PATCH", `/api/v1/pods/${podId}/webhooks/${endpointId}`, {
      enabled: true,
    });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
  });

  it("Slack: inbox items arrive as Block Kit messages with a link to the item", async () => {
    const rx = await receiver();
    rx.secret = ""; // Slack verifies nothing; the receiver takes the body as it comes
    const { podId, append } = await podWithEndpoint(rx, ["inbox.opened", "inbox.closed"], "slack");
    rx.secret = "";
    await append([
      {
        id: randomUUID(),
        type: "escalation",
        actor: "impl-1",
        body: {
          escalationId: "esc-slack",
          kind: "intent",
          question: "Ship on Friday?",
          options: ["Yes", "No"],
        },
      },
    ]);
    const got = await until("the Slack message", () =>
      rx.received.find((r) => JSON.stringify(r.body).includes("Ship on Friday?")),
    );
    const body = got.body as unknown as {
      text: string;
      blocks: {
        type: string;
        text?: { text: string };
        fields?: { text: string }[];
        elements?: { type: string; url: string }[];
      }[];
    };
    expect(body.text).toContain("Ship on Friday?");
    expect(body.blocks[0]).toMatchObject({ type: "header", text: { type: "plain_text" } });
    expect(body.blocks[0]!.text!.text).toContain("Ship on Friday?");
    const fields = body.blocks[1]!.fields!.map((f) => f.text).join("\n");
    expect(fields).toMatch(/\*Pod\*/);
    expect(fields).toMatch(/\*Kind\*\nescalation/);
    expect(fields).toMatch(/\*Waiting since\*/);
    const button = body.blocks[2]!.elements![0]!;
    expect(button).toMatchObject({ type: "button", url: `${s.url}/pods/${podId}?tab=inbox` });
  });

  it("SSRF: private targets are refused when saved and again when connecting (DNS rebinding)", async () => {
    // Its own database: a second worker on the same one would take the first server's deliveries.
    const strictDb = await createTestDatabase(provider);
    const strict = await startServer(
      { ...env({ PODWATCH_WEBHOOK_ALLOW_PRIVATE: "0" }), databaseUrl: strictDb.url },
      { knobs: { webhookTimeScale: SCALE } },
    );
    try {
      const { podId } = await agentPod(strict.url, "ssrf", {});
      for (const url of [
        "http://127.0.0.1:9/x",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://10.0.0.1/",
        "http://100.64.1.1/",
        "http://localhost/",
        "ftp://example.com/",
        "http://user:pw@example.com/",
      ]) {
        const r = await api(strict.url, "POST", `/api/v1/pods/${podId}/webhooks`, {
          url,
          events: ["checkpoint"],
        });
        expect(r.status, url).toBe(400);
        expect(r.body.error?.code ?? r.body.code, url).toMatch(/webhook_url_refused/);
      }
      expect(
        (
          await api(strict.url, "POST", `/api/v1/pods/${podId}/webhooks`, {
            url: `https://example.com/${"a".repeat(2100)}`,
            events: ["checkpoint"],
          })
        ).status,
      ).toBe(400);
      expect((await api(strict.url, "GET", `/api/v1/pods/${podId}/webhooks`)).body.webhooks).toEqual([]);
      // A name that passed when it was saved and resolves to loopback by the time of sending.
      const rx = await receiver();
      const endpointId = randomUUID();
      await strict.app.store.prisma.webhookEndpoint.create({
        data: {
          id: endpointId,
          podId,
          url: `http://localhost:${rx.port}/hook`,
          format: "standard",
          events: JSON.stringify(["checkpoint"]),
          secret: "whsec_" + Buffer.alloc(32, 1).toString("base64"),
          createdAt: new Date().toISOString(),
          createdBy: "test",
        },
      });
      expect(
        (await api(strict.url, "POST", `/api/v1/pods/${podId}/webhooks/${endpointId}/test`)).status,
      ).toBe(202);
      const d = await until("the refused attempt", async () => {
        const list = (await api(strict.url, "GET", `/api/v1/pods/${podId}/webhooks/${endpointId}/deliveries`))
          .body.deliveries;
        return list[0]?.attempts >= 1 && list[0];
      });
      expect(d.lastStatus).toBeNull();
      expect(d.lastError).toMatch(/refused: localhost resolves to a private or internal address/);
      expect(rx.received).toHaveLength(0);
    } finally {
      await strict.close();
      await strictDb.drop();
    }
  });
});
