// The cluster's acceptance test: two real podwatch processes on one PostgreSQL database. A socket
// on B gets what is appended on A in order, each seq once, p99 ≤ 100 ms; an answer on B wakes a
// long-poll on A; a deadline and its webhook happen once; SIGKILL of A during ingest loses no
// acknowledged event and its sockets resume on B; SIGTERM drains A (readyz draining, long-polls
// answered, requests in flight finished, sockets moved to B with nothing missed) and A exits 0.
// Clients that follow "the proxy's choice" sit behind a proxy that routes to the first ready node.
import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLUSTER_ADMIN_TOKEN, startCluster, type Cluster } from "../testing/cluster";
import { startFailoverProxy, type FailoverProxy } from "../testing/cluster-proxy";
import { seqRange, watchTape } from "../testing/tape-watcher";
import { WebhookReceiver } from "../testing/webhook-receiver";
import { agentPod, api } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { eventually, sleep } from "../testing/eventually";

const admin = { token: CLUSTER_ADMIN_TOKEN };
const DRAIN_MS = 5000;
type Ack = { id: string; seq: number; hash: string };
const note = (actor: string, text: string) => ({
  id: randomUUID(),
  type: "note",
  actor,
  body: { kind: "STATUS", text },
});
const head = async (base: string, podId: string): Promise<number> =>
  (await api(base, "GET", `/api/v1/pods/${podId}`, undefined, admin)).body.eventCount;

/** Every event of a pod, read page by page. */
async function readTape(base: string, podId: string): Promise<(Ack & { type: string })[]> {
  const all: (Ack & { type: string })[] = [];
  for (let after = 0; ;) {
    const page = (
      await api(base, "GET", `/api/v1/pods/${podId}/events?after=${after}&limit=1000`, undefined, admin)
    ).body.events as (Ack & { type: string })[];
    all.push(...page);
    if (page.length < 1000) return all;
    after = page.at(-1)!.seq;
  }
}

/** A POST whose body is sent in two halves: in flight from the first write until `finish`. */
function slowPost(base: string, path: string, token: string, body: unknown) {
  const text = JSON.stringify(body);
  const { hostname, port } = new URL(base);
  let answered!: (r: { status: number; body: string }) => void;
  const response = new Promise<{ status: number; body: string }>((r) => (answered = r));
  const req = request(
    {
      hostname,
      port,
      path,
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
        authorization: `Bearer ${token}`,
      },
    },
    (res) => {
      let out = "";
      res.on("data", (d) => (out += d));
      res.on("end", () => answered({ status: res.statusCode ?? 0, body: out }));
    },
  );
  req.on("error", (e) => answered({ status: -1, body: String(e) }));
  req.write(text.slice(0, 10));
  return { finish: () => (req.end(text.slice(10)), response) };
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

describe.each(testProviders().filter((p) => p === "postgres"))("two podwatch processes on one %s", () => {
  let cluster: Cluster;
  let proxy: FailoverProxy;
  const a = () => cluster.node("a").url;
  const b = () => cluster.node("b").url;

  beforeAll(async () => {
    cluster = await startCluster(["a", "b"], { env: { PODWATCH_DRAIN_MS: String(DRAIN_MS) } });
    proxy = await startFailoverProxy(() =>
      [...cluster.nodes.values()]
        .filter((n) => n.child.exitCode === null && n.child.signalCode === null)
        .map((n) => n.url),
    );
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await cluster?.stop();
  });

  it("a socket on B gets each event appended on A, in order, once (its latency printed; the target is bench/cluster.ts's)", async () => {
    const { podId, tokens } = await agentPod(a(), "latency", { impl: "implementer" }, admin);
    const watcher = watchTape(b(), CLUSTER_ADMIN_TOKEN, podId, 0);
    try {
      await eventually(
        async () => watcher.isLive(),
        (l) => l,
        "B's socket to be live",
      );
      const sent: { id: string; at: number }[] = [];
      const started = performance.now();
      for (let i = 0; i < 300; i++) {
        await sleep(Math.max(0, started + i * 10 - performance.now())); // a steady 100 events a second
        const event = note("impl", `e${i}`);
        const at = performance.now();
        const r = await api(a(), "POST", `/api/v1/pods/${podId}/events`, event, { token: tokens.impl! });
        expect(r.status).toBe(201);
        sent.push({ id: event.id, at });
      }
      const last = await head(a(), podId);
      await watcher.until(last);
      expect(watcher.seqs).toEqual(seqRange(0, last));
      const latencies = sent.map((s) => watcher.arrivals.get(s.id)! - s.at).sort((x, y) => x - y);
      expect(latencies.every((l) => Number.isFinite(l))).toBe(true);
      const [p50, p99] = [quantile(latencies, 0.5), quantile(latencies, 0.99)];
      console.log(
        `cluster: POST on A → socket on B, ${latencies.length} events: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
      );
    } finally {
      watcher.close();
    }
  });

  it("an answer given on B wakes an agent's long-poll on A", async () => {
    const { podId, tokens } = await agentPod(a(), "long-poll", { impl: "implementer" }, admin);
    await api(
      a(),
      "POST",
      `/api/v1/pods/${podId}/members`,
      { memberId: "ann@example.com", kind: "human", displayName: "Ann", roles: ["approver"] },
      admin,
    );
    const asked = await api(
      a(),
      "POST",
      `/api/v1/pods/${podId}/events`,
      {
        type: "escalation",
        actor: "impl",
        body: { escalationId: "e1", kind: "intent", question: "Ship?", options: ["Yes", "No"] },
      },
      { token: tokens.impl! },
    );
    expect(asked.status).toBe(201);
    const after = asked.body.events[0].seq as number;
    const poll = api(a(), "GET", `/api/v1/pods/${podId}/events?after=${after}&wait=30`, undefined, {
      token: tokens.impl!,
    });
    await sleep(300); // the poll is waiting on A
    const answeredAt = performance.now();
    const answer = await api(
      b(),
      "POST",
      `/api/v1/pods/${podId}/events`,
      { type: "escalation.answered", actor: "ann@example.com", body: { escalationId: "e1", answer: "Yes" } },
      admin,
    );
    expect(answer.status).toBe(201);
    const woken = await poll;
    const waited = performance.now() - answeredAt;
    expect(woken.status).toBe(200);
    expect(woken.body.events.map((e: { type: string; body: unknown }) => [e.type, e.body])).toEqual([
      ["escalation.answered", { escalationId: "e1", answer: "Yes" }],
    ]);
    expect(waited).toBeLessThan(2000); // woken by the answer, not by its 30 s running out
  });

  it("a deadline passes once and its webhook is delivered once, with both nodes up", async () => {
    const rx = new WebhookReceiver();
    await rx.up();
    try {
      const { podId, tokens } = await agentPod(a(), "deadline", { impl: "implementer" }, admin);
      const hook = await api(
        b(),
        "POST",
        `/api/v1/pods/${podId}/webhooks`,
        { url: rx.url, format: "standard", events: ["deadline.passed"] },
        admin,
      );
      expect(hook.status).toBe(201);
      rx.secret = hook.body.secret;
      const at = new Date(Date.now() + 1500).toISOString();
      const asked = await api(
        b(),
        "POST",
        `/api/v1/pods/${podId}/events`,
        {
          type: "escalation",
          actor: "impl",
          body: {
            escalationId: "e1",
            kind: "intent",
            question: "Ship?",
            options: ["Yes", "No"],
            deadline: { at, then: "answer", answer: "Yes" },
          },
        },
        { token: tokens.impl! },
      );
      expect(asked.status).toBe(201);
      const passed = async (base: string) =>
        (await readTape(base, podId)).filter((e) => e.type === "deadline.passed");
      await eventually(
        () => passed(a()),
        (l) => l.length > 0,
        "deadline.passed",
      );
      await eventually(
        async () => rx.accepted.length,
        (n) => n > 0,
        "the webhook",
      );
      await sleep(2000); // a second node's pass or a redelivery would show up by now
      expect(await passed(a())).toHaveLength(1);
      expect(await passed(b())).toHaveLength(1);
      expect([rx.accepted.length, rx.duplicates(), rx.badSignatures]).toEqual([1, 0, 0]);
    } finally {
      await rx.down();
    }
  });

  it("SIGTERM drains A: not ready, long-polls answered, requests in flight finished, its sockets resume on B with nothing missed, exit 0 within drainMs", async () => {
    const { podId, tokens } = await agentPod(a(), "drain", { impl: "implementer" }, admin);
    const agent = { token: tokens.impl! };
    const watcher = watchTape(proxy.url, CLUSTER_ADMIN_TOKEN, podId, 0); // the proxy picks A, the first ready node
    await eventually(
      async () => watcher.isLive(),
      (l) => l,
      "the socket to be live on A",
    );
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        expect(
          (await api(b(), "POST", `/api/v1/pods/${podId}/events`, note("impl", `w${i}`), agent)).status,
        ).toBe(201);
        await sleep(15);
      }
    })();
    await sleep(300);
    const poll = api(a(), "GET", `/api/v1/pods/${podId}/events?after=1000000&wait=30`, undefined, agent);
    const upload = slowPost(
      a(),
      `/api/v1/pods/${podId}/events`,
      tokens.impl!,
      note("impl", "sent slowly, across the drain"),
    );
    await sleep(300);

    const nodeA = cluster.node("a");
    const termAt = performance.now();
    nodeA.child.kill("SIGTERM");
    const ready = await eventually(
      () => api(nodeA.url, "GET", "/readyz", undefined, null),
      (r) => r.status === 503,
      "A's /readyz to say draining",
      3000,
      10,
    );
    expect(ready.body).toMatchObject({ ok: false, error: { code: "draining" } });
    const polled = await poll;
    expect([polled.status, polled.body.events]).toEqual([200, []]);
    expect(performance.now() - termAt).toBeLessThan(2000); // answered at once, not after its 30 s
    // A new socket is refused by A (a proxy's health check already sends it elsewhere).
    const refused = await new Promise<string>((resolve) => {
      const s = connect(nodeA.url, {
        transports: ["websocket"],
        forceNew: true,
        reconnection: false,
        auth: { token: CLUSTER_ADMIN_TOKEN },
      });
      s.on("connect", () => (s.close(), resolve("connected")));
      s.on("connect_error", () => (s.close(), resolve("refused")));
    });
    expect(refused).toBe("refused");
    await sleep(500);
    const uploaded = await upload.finish(); // in flight since before SIGTERM: still answered
    expect(uploaded.status).toBe(201);
    const exit = await nodeA.exited;
    const took = performance.now() - termAt;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(took).toBeLessThanOrEqual(DRAIN_MS);
    expect(nodeA.output()).toContain("drained and closed");

    await sleep(300);
    writing = false;
    await writer;
    const last = await head(b(), podId);
    await watcher.until(last);
    watcher.close();
    expect(watcher.disconnects[0]).toBe("transport close"); // a reason socket.io-client reconnects on by itself
    expect(watcher.connects()).toBe(2); // A, then B
    expect(watcher.seqs).toEqual(seqRange(0, last));
    await cluster.start("a"); // for what follows
  });

  it("SIGKILL of A during ingest loses no acknowledged event; its sockets resume on B from their seq", async () => {
    const { podId, tokens } = await agentPod(a(), "crash", { impl: "implementer" }, admin);
    const onA = watchTape(proxy.url, CLUSTER_ADMIN_TOKEN, podId, 0);
    const onB = watchTape(b(), CLUSTER_ADMIN_TOKEN, podId, 0);
    await eventually(
      async () => onA.isLive() && onB.isLive(),
      (l) => l,
      "both sockets to be live",
    );
    const acked: Ack[] = [];
    let writing = true;
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        const events = Array.from({ length: 1 + (i % 4) }, () => note("impl", `w${w} i${i}`));
        try {
          const res = await fetch(`${a()}/api/v1/pods/${podId}/events`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${tokens.impl}` },
            body: JSON.stringify({ events }),
          });
          if (res.status === 201) acked.push(...((await res.json()) as { events: Ack[] }).events);
        } catch {
          return; // A died under us: this request was never acknowledged
        }
      }
    };
    const writers = Array.from({ length: 6 }, (_, w) => writer(w));
    await sleep(1500);
    const seenOnA = onA.seqs.length;
    await cluster.node("a").kill("SIGKILL");
    writing = false;
    await Promise.all(writers);
    expect(acked.length).toBeGreaterThan(100);
    expect(seenOnA).toBeGreaterThan(0);
    // Appended through B while A's socket is still finding its way there: its resubscription must bring them.
    const meanwhile = await api(
      b(),
      "POST",
      `/api/v1/pods/${podId}/events`,
      { events: Array.from({ length: 20 }, (_, i) => note("impl", `after the crash ${i}`)) },
      { token: tokens.impl! },
    );
    expect(meanwhile.status).toBe(201);
    await eventually(
      async () => onA.connects() === 2 && onA.isLive(),
      (l) => l,
      "A's socket to resume on B",
    );

    const stored = new Map((await readTape(b(), podId)).map(({ id, seq, hash }) => [id, { id, seq, hash }]));
    expect(acked.filter((e) => JSON.stringify(stored.get(e.id)) !== JSON.stringify(e))).toEqual([]);
    const last = await head(b(), podId);
    await onA.until(last);
    await onB.until(last);
    onA.close();
    onB.close();
    expect(onA.connects()).toBe(2); // A, then B from the seq it had
    expect(onA.seqs).toEqual(seqRange(0, last));
    expect(onB.seqs).toEqual(seqRange(0, last));
    expect((await api(b(), "GET", `/api/v1/pods/${podId}/verify`, undefined, admin)).body).toEqual({
      ok: true,
      checked: last,
    });
  });
});

describe.each(testProviders())("a lone node drains on %s", (provider) => {
  it("on SIGTERM: readyz draining, its long-poll answered at once, a request in flight finished, its socket's transport closed, exit 0", async () => {
    const cluster = await startCluster(["solo"], { provider, env: { PODWATCH_DRAIN_MS: String(DRAIN_MS) } });
    try {
      const node = cluster.node("solo");
      const { podId, tokens } = await agentPod(node.url, "solo", { impl: "implementer" }, admin);
      const watcher = watchTape(node.url, CLUSTER_ADMIN_TOKEN, podId, 0);
      await eventually(
        async () => watcher.isLive(),
        (l) => l,
        "the socket to be live",
      );
      const poll = api(node.url, "GET", `/api/v1/pods/${podId}/events?after=1000&wait=30`, undefined, {
        token: tokens.impl!,
      });
      const upload = slowPost(
        node.url,
        `/api/v1/pods/${podId}/events`,
        tokens.impl!,
        note("impl", "across the drain"),
      );
      await sleep(300);
      const termAt = performance.now();
      node.child.kill("SIGTERM");
      const ready = await eventually(
        () => api(node.url, "GET", "/readyz", undefined, null),
        (r) => r.status === 503,
        "/readyz to say draining",
        3000,
        10,
      );
      expect(ready.body.error.code).toBe("draining");
      expect((await poll).body.events).toEqual([]);
      await eventually(
        async () => watcher.disconnects,
        (d) => d.length > 0,
        "the socket's transport to close",
      );
      expect(watcher.disconnects[0]).toBe("transport close");
      watcher.close();
      expect((await upload.finish()).status).toBe(201);
      expect(await node.exited).toEqual({ code: 0, signal: null });
      expect(performance.now() - termAt).toBeLessThanOrEqual(DRAIN_MS);
    } finally {
      await cluster.stop();
    }
  });
});
