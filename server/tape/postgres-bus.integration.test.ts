// Live across nodes: two real servers (two stores, two buses, two ports) on one
// PostgreSQL database, talked to only through the API and Socket.IO. On SQLite a
// node is alone, and its bus is in-process.
import { randomUUID } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../start-server";
import { agentPod, api, startServerOn, startTestServer, TEST_ADMIN_TOKEN } from "../testing/test-server";
import { createTestDatabase, rawSql, testProviders, type TestDatabase } from "../testing/test-databases";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const note = (text: string) => ({
  id: randomUUID(),
  type: "note",
  actor: "impl",
  body: { kind: "STATUS", text },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const client = (url: string, token = TEST_ADMIN_TOKEN): Client =>
  connect(url, { transports: ["websocket"], forceNew: true, auth: { token } });

/** Polls `check` until it holds (or fails with what it last saw). */
async function until<T>(
  what: string,
  check: () => Promise<T> | T,
  ok: (v: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await check();
    if (ok(v)) return v;
    if (Date.now() - started > ms) throw new Error(`${what}: still ${JSON.stringify(v)} after ${ms} ms`);
    await sleep(10);
  }
}

/** A spectator of one pod: every seq its socket receives, in order. */
function watch(url: string, podId: string) {
  const socket = client(url);
  const seqs: number[] = [];
  let live = false;
  socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq: seqs.at(-1) ?? 0 }));
  socket.on("tape:events", (f, ack) => {
    ack?.();
    if (f.podId === podId) seqs.push(...f.events.map((e) => e.seq));
  });
  socket.on("tape:live", () => (live = true));
  return {
    seqs,
    live: () => until("live", () => live, Boolean),
    reached: (seq: number) =>
      until(
        `seqs up to ${seq}`,
        () => seqs.at(-1) ?? 0,
        (last) => last >= seq,
      ),
    close: () => socket.close(),
  };
}

const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe("the bus a SQLite node uses", () => {
  it("is in-process, and /readyz says so with the node's name", async () => {
    const s = await startTestServer("sqlite", { PODWATCH_NODE_ID: "lonely-node" });
    try {
      expect((await api(s.url, "GET", "/readyz")).body).toEqual({
        ok: true,
        database: "sqlite",
        bus: "in-process",
        node: "lonely-node",
      });
    } finally {
      await s.stop();
    }
  });
});

describe.each(testProviders().filter((p) => p === "postgres"))("live across two nodes on %s", (provider) => {
  let db: TestDatabase;
  let a: RunningServer;
  let b: RunningServer;
  const append = async (s: RunningServer, podId: string, body: unknown) => {
    const r = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, body);
    expect(r.status).toBe(201);
    return Math.max(...r.body.events.map((e: { seq: number }) => e.seq));
  };
  const newPod = async (s: RunningServer, name: string): Promise<string> =>
    (await api(s.url, "POST", "/api/v1/pods", { name, mode: "collaboration" })).body.id;

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    a = await startServerOn(db, { PODWATCH_NODE_ID: "node-a" });
    b = await startServerOn(db, { PODWATCH_NODE_ID: "node-b" });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it("each node's /readyz names its PostgreSQL bus and itself", async () => {
    expect((await api(a.url, "GET", "/readyz")).body).toEqual({
      ok: true,
      database: "postgres",
      bus: "postgres",
      node: "node-a",
    });
    expect((await api(b.url, "GET", "/readyz")).body).toEqual({
      ok: true,
      database: "postgres",
      bus: "postgres",
      node: "node-b",
    });
  });

  it("a socket on either node receives every event of a pod both nodes append to at once, in order, with no gap or duplicate", async () => {
    const podId = await newPod(a, "two writers");
    const onA = watch(a.url, podId);
    const onB = watch(b.url, podId);
    await Promise.all([onA.live(), onB.live()]);
    const writer = (s: RunningServer, tag: string) =>
      (async () => {
        let last = 0;
        for (let i = 0; i < 60; i++)
          last = Math.max(
            last,
            await append(
              s,
              podId,
              i % 3 ? note(`${tag} ${i}`) : { events: [note(`${tag} ${i}a`), note(`${tag} ${i}b`)] },
            ),
          );
        return last;
      })();
    const head = Math.max(...(await Promise.all([writer(a, "a"), writer(b, "b"), writer(a, "a2")])));
    expect(head).toBe(3 * 80);
    await Promise.all([onA.reached(head), onB.reached(head)]);
    await sleep(200); // a late duplicate would show up now
    expect(onB.seqs).toEqual(oneToN(head));
    expect(onA.seqs).toEqual(oneToN(head));
    onA.close();
    onB.close();
  });

  it("a long-poll on A is woken by an append on B", async () => {
    const podId = await newPod(b, "long-poll");
    const head = await append(b, podId, note("before"));
    const started = Date.now();
    const poll = api(a.url, "GET", `/api/v1/pods/${podId}/events?after=${head}&wait=30`);
    await sleep(300); // the poll is waiting on A by now
    const seq = await append(b, podId, note("the answer"));
    const r = await poll;
    expect(r.status).toBe(200);
    expect(r.body.events.map((e: { seq: number; body: { text: string } }) => [e.seq, e.body.text])).toEqual([
      [seq, "the answer"],
    ]);
    expect(Date.now() - started).toBeLessThan(25_000); // woken, not timed out
  });

  it("a pod created on A tells B's overview sockets", async () => {
    const socket = client(b.url);
    try {
      await new Promise<void>((resolve) => socket.emit("pods:subscribe", () => resolve()));
      const changed = new Promise<void>((resolve) => socket.once("pods:changed", () => resolve()));
      await newPod(a, "new on A");
      await changed;
    } finally {
      socket.close();
    }
  });

  it("revoking an agent's token on B ends that agent's socket on A at once", async () => {
    const { podId, tokens } = await agentPod(a.url, "revoked across", { bot: "implementer" });
    const heardOnA: unknown[] = [];
    a.app.bus.on("credential-revoked", (c) => heardOnA.push(c));
    const socket = client(a.url, tokens.bot);
    try {
      await new Promise<void>(
        (resolve, reject) => (socket.once("connect", resolve), socket.once("connect_error", reject)),
      );
      expect((await api(a.url, "GET", "/api/v1/me", undefined, { token: tokens.bot })).status).toBe(200);
      const ended = new Promise<string>((resolve) => socket.once("disconnect", resolve));
      const [token] = (await api(b.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens;
      expect((await api(b.url, "DELETE", `/api/v1/pods/${podId}/tokens/${token.id}`)).status).toBe(200);
      expect(await ended).toBe("io server disconnect");
      expect(heardOnA).toEqual([{ kind: "agent-token", tokenId: token.id }]);
      // A had the token in its cache: the revocation made on B ends it there too, at once.
      expect((await api(a.url, "GET", "/api/v1/me", undefined, { token: tokens.bot })).status).toBe(401);
    } finally {
      socket.close();
    }
  });

  it("a node whose listening connection is killed says so on /readyz, reconnects and sends what it missed, in order", async () => {
    const podId = await newPod(a, "outage");
    const before = await append(a, podId, { events: [note("1"), note("2")] });
    const onB = watch(b.url, podId);
    await onB.live();
    await onB.reached(before);
    // Kill B's listener again and again, so its backoff keeps it deaf while A appends.
    let killing = true;
    const killer = (async () => {
      while (killing) {
        await rawSql(
          db,
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'podwatch-bus:node-b~%'`,
        );
        await sleep(20);
      }
    })();
    const down = await until(
      "B not ready",
      () => api(b.url, "GET", "/readyz"),
      (r) => r.status === 503,
    );
    expect(down.body.error.code).toBe("bus_unavailable");
    expect((await api(a.url, "GET", "/readyz")).status).toBe(200);
    let head = before;
    for (let i = 0; i < 10; i++)
      head = await append(
        a,
        podId,
        i % 2 ? note(`missed ${i}`) : { events: [note(`m${i}a`), note(`m${i}b`)] },
      );
    killing = false;
    await killer;
    await until(
      "B ready again",
      () => api(b.url, "GET", "/readyz"),
      (r) => r.status === 200,
    );
    await onB.reached(head);
    head = await append(a, podId, note("after")); // and live again
    await onB.reached(head);
    await sleep(200);
    expect(onB.seqs).toEqual(oneToN(head));
    onB.close();
  });
});
