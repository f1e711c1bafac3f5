// A node far behind another, with big events: what it reads back goes to its
// sockets as frames of a bounded weight, in order, and the node lives on. One frame
// per read (a thousand ~1 MB events) once built a gigabyte string and ended the process.
import { randomUUID } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../start-server";
import { api, startServerOn, TEST_ADMIN_TOKEN } from "../testing/test-server";
import { createTestDatabase, rawSql, testProviders, type TestDatabase } from "../testing/test-databases";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";
import { WIRE_FRAME_BYTES } from "./wire-bytes";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const EVENT_TEXT_BYTES = 500 * 1024;
const big = (i: number) => ({
  id: randomUUID(),
  type: "note",
  actor: "impl",
  body: { kind: "STATUS", text: `big ${i}`, BODY: "x".repeat(EVENT_TEXT_BYTES) },
});

async function until<T>(
  what: string,
  check: () => Promise<T> | T,
  ok: (v: T) => boolean,
  ms = 30_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await check();
    if (ok(v)) return v;
    if (Date.now() - started > ms) throw new Error(`${what}: still ${JSON.stringify(v)} after ${ms} ms`);
    await sleep(20);
  }
}

describe.each(testProviders().filter((p) => p === "postgres"))("a lagging node on %s", (provider) => {
  let db: TestDatabase;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    a = await startServerOn(db, { PODWATCH_NODE_ID: "big-a" });
    b = await startServerOn(db, { PODWATCH_NODE_ID: "big-b" });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it("sends ~500 KB events another node appended while it was deaf to its socket in order, in frames under a bound", async () => {
    const podId: string = (
      await api(a.url, "POST", "/api/v1/pods", { name: "big events", mode: "collaboration" })
    ).body.id;
    const socket: Client = connect(b.url, {
      transports: ["websocket"],
      forceNew: true,
      auth: { token: TEST_ADMIN_TOKEN },
    });
    const seqs: number[] = [];
    const frameBytes: number[] = [];
    let live = false;
    socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq: seqs.at(-1) ?? 0 }));
    socket.on("tape:events", (f, ack) => {
      ack?.();
      frameBytes.push(JSON.stringify(f).length);
      seqs.push(...f.events.map((e) => e.seq));
    });
    socket.on("tape:live", () => (live = true));
    try {
      await until("live", () => live, Boolean);
      // B's listener is killed again and again (its backoff keeps it deaf) while A appends 24 big events.
      let killing = true;
      const killer = (async () => {
        while (killing) {
          await rawSql(
            db,
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'podwatch-bus:big-b~%'`,
          );
          await sleep(20);
        }
      })();
      await until(
        "B deaf",
        () => api(b.url, "GET", "/readyz"),
        (r) => r.status === 503,
      );
      let head = 0;
      for (let i = 0; i < 6; i++) {
        const r = await api(a.url, "POST", `/api/v1/pods/${podId}/events`, {
          events: [big(4 * i), big(4 * i + 1), big(4 * i + 2), big(4 * i + 3)],
        });
        expect(r.status).toBe(201);
        head = r.body.events.at(-1).seq;
      }
      expect(head).toBe(24);
      killing = false;
      await killer;
      await until(
        "B ready again",
        () => api(b.url, "GET", "/readyz"),
        (r) => r.status === 200,
      );
      // And a few more while it listens: each commit's four events are read back as one notice.
      const more = await api(a.url, "POST", `/api/v1/pods/${podId}/events`, {
        events: [big(24), big(25), big(26), big(27)],
      });
      head = more.body.events.at(-1).seq;
      await until(
        `seqs up to ${head}`,
        () => seqs.at(-1) ?? 0,
        (last) => last >= head,
      );
      await sleep(200); // a late duplicate would show up now
      expect(seqs).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      // A frame holds what fits in WIRE_FRAME_BYTES, or one event alone: never several of these.
      expect(Math.max(...frameBytes)).toBeLessThan(WIRE_FRAME_BYTES + EVENT_TEXT_BYTES);
      expect((await api(b.url, "GET", "/healthz")).status).toBe(200);
    } finally {
      socket.close();
    }
  }, 90_000);
});
