import { randomUUID } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const note = (text: string) => ({
  id: randomUUID(),
  type: "note",
  actor: "impl",
  body: { kind: "STATUS", text },
});

/** Subscribes and collects seqs until `until` has been seen (or the timeout). */
function watch(url: string, podId: string, afterSeq: number) {
  const socket: Client = connect(url, {
    transports: ["websocket"],
    forceNew: true,
    auth: { token: TEST_ADMIN_TOKEN },
  });
  const seqs: number[] = [];
  let live = false;
  socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq }));
  socket.on("tape:events", (f, ack) => {
    ack?.(); // backlog pages wait for it
    if (f.podId === podId) seqs.push(...f.events.map((e) => e.seq));
  });
  socket.on("tape:live", () => (live = true));
  const until = (seq: number, ms = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (live && seqs.at(-1) === seq) return (clearInterval(poll), resolve());
        if (Date.now() - started > ms)
          return (
            clearInterval(poll),
            reject(new Error(`saw ${seqs.length} events, last ${seqs.at(-1)}, live=${live}`))
          );
      }, 10);
    });
  return { seqs, until, isLive: () => live, close: () => socket.close() };
}

describe.each(testProviders())("live tape over Socket.IO on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  beforeAll(async () => {
    s = await startTestServer(provider);
    podId = (await api(s.url, "POST", "/api/v1/pods", { name: "live", mode: "collaboration" })).body.id;
    for (const n of [1000, 1000, 500]) {
      const r = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
        events: Array.from({ length: n }, (_, i) => note(`old ${i}`)),
      });
      expect(r.status).toBe(201);
    }
  });
  afterAll(() => s.stop());

  it("delivers backlog then live events in order, with no gap or duplicate, while events are being appended", async () => {
    let writing = true;
    let written = 2500;
    const writer = (async () => {
      for (let i = 0; i < 150; i++) {
        const r = await api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/events`,
          i % 2 ? note(`live ${i}`) : { events: [note(`a${i}`), note(`b${i}`)] },
        );
        written = Math.max(written, ...r.body.events.map((e: { seq: number }) => e.seq));
      }
      writing = false;
    })();
    const spectators = [0, 100, 2400].map((after) => ({ after, w: watch(s.url, podId, after) }));
    await writer;
    expect(writing).toBe(false);
    for (const { after, w } of spectators) {
      await w.until(written);
      expect(w.seqs).toEqual(Array.from({ length: written - after }, (_, i) => after + i + 1));
      w.close();
    }
  });

  it("a spectator already at the head only gets live events", async () => {
    const head = (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount;
    const w = watch(s.url, podId, head);
    await new Promise<void>((r) => {
      const t = setInterval(() => w.isLive() && (clearInterval(t), r()), 10);
    });
    expect(w.seqs).toEqual([]);
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, note("fresh"));
    await w.until(head + 1);
    expect(w.seqs).toEqual([head + 1]);
    w.close();
  });

  it("tells a subscriber of an unknown pod", async () => {
    const socket: Client = connect(s.url, {
      transports: ["websocket"],
      forceNew: true,
      auth: { token: TEST_ADMIN_TOKEN },
    });
    const message = await new Promise<string>((resolve) => {
      socket.on("tape:error", (e) => resolve(e.message));
      socket.emit("tape:subscribe", { podId: "missing", afterSeq: 0 });
    });
    expect(message).toContain("pod not found");
    socket.close();
  });
});
