// Spectators that never read used to make the server queue page
// after page of a big tape (80 of them: 0.4 GB → 2.5 GB). Back-pressure now:
// a backlog page goes out only once the last was acknowledged, a live socket's
// queue is bounded, and a slow consumer is disconnected instead of buffered.
import { randomUUID } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { openStalledSocket, type StalledSocket } from "../testing/stalled-socket";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const ACK_TIMEOUT_MS = 2000;
const big = (i: number, size: number) => ({
  id: randomUUID(),
  type: "note",
  actor: "impl",
  body: { kind: "OBSERVATION", text: `${i} ${"x".repeat(size)}` },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A well-behaved spectator (acknowledges every frame) that records the seqs it gets. */
function reader(url: string, podId: string, afterSeq: number) {
  const socket: Client = connect(url, {
    transports: ["websocket"],
    forceNew: true,
    auth: { token: TEST_ADMIN_TOKEN },
  });
  const seqs: number[] = [];
  socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq: seqs.at(-1) ?? afterSeq }));
  socket.on("tape:events", (f, ack) => {
    ack?.();
    for (const e of f.events) if (e.seq > (seqs.at(-1) ?? afterSeq)) seqs.push(e.seq);
  });
  const until = async (seq: number, ms = 60_000) => {
    for (const start = Date.now(); seqs.at(-1) !== seq; await sleep(20)) {
      if (Date.now() - start > ms) throw new Error(`reader saw ${seqs.length} events, last ${seqs.at(-1)}`);
    }
  };
  return { seqs, until, close: () => socket.close() };
}

const connections = (s: TestServer) =>
  new Promise<number>((resolve, reject) =>
    s.httpServer.getConnections((e, n) => (e ? reject(e) : resolve(n))),
  );
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
/** What this process (the server is in it) still holds after a full collection: queued frames, not garbage. */
const held = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

describe.each(testProviders())("slow consumers on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(provider, { PODWATCH_SOCKET_ACK_TIMEOUT_MS: String(ACK_TIMEOUT_MS) });
  });
  afterAll(() => s.stop());

  async function podWith(events: number, size: number) {
    const podId: string = (await api(s.url, "POST", "/api/v1/pods", { name: "slow", mode: "collaboration" }))
      .body.id;
    for (let i = 0; i < events; i += 500) {
      const r = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
        events: Array.from({ length: Math.min(500, events - i) }, (_, j) => big(i + j, size)),
      });
      expect(r.status).toBe(201);
    }
    return podId;
  }

  it("stalled backlog readers hold at most a page each and are disconnected, while a reader on the same pod gets everything in order", async () => {
    const TAPE = 3000;
    const podId = await podWith(TAPE, 8000); // ~24 MB of tape; an unpaced page of 1000 events is ~8 MB per socket
    const normal = reader(s.url, podId, 0);
    await normal.until(TAPE);
    const before = await connections(s);
    const baseline = held();
    const stalled: StalledSocket[] = [];
    try {
      const opened = Date.now();
      for (let i = 0; i < 40; i++)
        stalled.push(await openStalledSocket(s.url, { token: TEST_ADMIN_TOKEN, podId, afterSeq: 0 }));
      // Live events keep flowing to the reader meanwhile.
      for (let i = 0; i < 5; i++)
        expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, big(TAPE + i, 100))).status).toBe(
          201,
        );
      // While they are still connected (before the ack timeout): what do they cost?
      let peak = held() - baseline;
      while (Date.now() - opened < ACK_TIMEOUT_MS * 0.75) {
        await sleep(200);
        peak = Math.max(peak, held() - baseline);
      }
      const dropBy = Date.now() + ACK_TIMEOUT_MS + 8000;
      while ((await connections(s)) > before && Date.now() < dropBy) await sleep(100);
      expect(await connections(s), "stalled sockets are disconnected").toBeLessThanOrEqual(before);
      expect(peak, "bytes held for 40 stalled sockets").toBeLessThan(100 * 1024 * 1024);
      await normal.until(TAPE + 5);
      expect(normal.seqs).toEqual(Array.from({ length: TAPE + 5 }, (_, i) => i + 1));
    } finally {
      for (const t of stalled) t.destroy();
      normal.close();
    }
  });

  it("a stalled socket that subscribes again and again is disconnected, not served a page per subscribe", async () => {
    const podId = await podWith(200, 8000); // quiet pod: no live frames that would drop it
    const before = await connections(s);
    const baseline = held();
    // Re-subscribing for ~4 s: each subscribe replaces the last, so no ack timeout ever drops it.
    const looping = await openStalledSocket(s.url, {
      token: TEST_ADMIN_TOKEN,
      podId,
      afterSeq: 0,
      resubscribe: { times: 400, everyMs: 10 },
    });
    try {
      let peak = 0;
      const dropBy = Date.now() + 3000; // while it is still re-subscribing
      while ((await connections(s)) > before && Date.now() < dropBy) {
        peak = Math.max(peak, held() - baseline);
        await sleep(50);
      }
      expect(await connections(s), "the looping socket is disconnected").toBeLessThanOrEqual(before);
      expect(peak, "bytes held for one looping socket").toBeLessThan(32 * 1024 * 1024);
    } finally {
      looping.destroy();
    }
  });

  it("a client that stops acknowledging is disconnected, reconnects by itself and resumes from its seq with nothing lost", async () => {
    const podId = await podWith(2500, 100);
    const socket: Client = connect(s.url, {
      transports: ["websocket"],
      forceNew: true,
      auth: { token: TEST_ADMIN_TOKEN },
      reconnectionDelay: 100,
    });
    const seqs: number[] = [];
    let acking = false;
    const reasons: string[] = [];
    socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq: seqs.at(-1) ?? 0 }));
    socket.on("disconnect", (reason) => ((acking = true), reasons.push(reason))); // from now on it keeps up
    socket.on("tape:events", (f, ack) => {
      if (acking) ack?.();
      for (const e of f.events) if (e.seq > (seqs.at(-1) ?? 0)) seqs.push(e.seq);
    });
    try {
      for (const start = Date.now(); seqs.at(-1) !== 2500; await sleep(20)) {
        if (Date.now() - start > 30_000)
          throw new Error(`saw ${seqs.length} events, disconnections: ${reasons.join(", ")}`);
      }
      expect(reasons).toEqual(["transport close"]); // not "io server disconnect", after which a client stays away
      expect(seqs).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    } finally {
      socket.close();
    }
  });

  it("a live socket that stops reading is disconnected once its queue passes the bound; a reader gets every event in order", async () => {
    const podId = await podWith(1, 10);
    const normal = reader(s.url, podId, 0);
    await normal.until(1);
    const before = await connections(s);
    const stalled: StalledSocket[] = [];
    try {
      for (let i = 0; i < 10; i++)
        stalled.push(await openStalledSocket(s.url, { token: TEST_ADMIN_TOKEN, podId, afterSeq: 1 }));
      await sleep(200); // subscribed and live
      let head = 1;
      // Up to 64 MB of live frames, 2 MB a request: far beyond any socket's bound plus the kernel's buffers.
      for (let r = 0; r < 32 && (await connections(s)) > before; r++) {
        const res = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          events: Array.from({ length: 500 }, (_, j) => big(head + j, 4000)),
        });
        expect(res.status).toBe(201);
        head += 500;
      }
      const start = Date.now();
      while ((await connections(s)) > before && Date.now() - start < 5000) await sleep(100);
      expect(await connections(s), "stalled live sockets are disconnected").toBeLessThanOrEqual(before);
      await normal.until(head);
      expect(normal.seqs).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    } finally {
      for (const t of stalled) t.destroy();
      normal.close();
    }
  });

  describe("with the default acknowledgement timeout", () => {
    let d: TestServer;
    beforeAll(async () => {
      d = await startTestServer(provider);
    });
    afterAll(() => d.stop());

    it("a subscriber stuck in its backlog while the pod runs far ahead is disconnected, not parked for", async () => {
      const podId: string = (
        await api(d.url, "POST", "/api/v1/pods", { name: "ahead", mode: "collaboration" })
      ).body.id;
      expect((await api(d.url, "POST", `/api/v1/pods/${podId}/events`, big(0, 10))).status).toBe(201);
      const before = await connections(d);
      const stuck = await openStalledSocket(d.url, { token: TEST_ADMIN_TOKEN, podId, afterSeq: 0 });
      try {
        const start = Date.now();
        for (let r = 0; r < 12 && (await connections(d)) > before; r++) {
          expect(
            (
              await api(d.url, "POST", `/api/v1/pods/${podId}/events`, {
                events: Array.from({ length: 1000 }, (_, j) => big(j, 10)),
              })
            ).status,
          ).toBe(201);
        }
        while ((await connections(d)) > before && Date.now() - start < 15_000) await sleep(100);
        expect(
          await connections(d),
          "disconnected long before its 30 s acknowledgement timeout",
        ).toBeLessThanOrEqual(before);
      } finally {
        stuck.destroy();
      }
    });
  });
});
