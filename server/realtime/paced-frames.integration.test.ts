// A busy pod's live frames are paced (server/realtime/frame-window.ts): with a budget this small
// every spectator holds its pod's frames back for the longest window, so single-event commits
// share frames. Spectators already live, and one that joins while frames are being gathered (its
// backlog read, then the hand-over), must still get every event once and in order. The pod's change
// notices are paced too, and still chain from one to the next up to the head.
import { randomUUID } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { seqRange } from "../testing/tape-watcher";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const note = (text: string) => ({
  id: randomUUID(),
  type: "note",
  actor: "impl",
  body: { kind: "STATUS", text },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keeps every seq it is sent (duplicates too) and counts the live frames (those without an ack). */
function spectator(url: string, podId: string, afterSeq: number) {
  const socket: Client = connect(url, {
    transports: ["websocket"],
    forceNew: true,
    auth: { token: TEST_ADMIN_TOKEN },
  });
  const seqs: number[] = [];
  const notices: { fromSeq: number; seq: number }[] = [];
  let liveFrames = 0;
  let live = false;
  socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq }));
  socket.on("tape:events", (frame, ack) => {
    if (ack) ack();
    else if (live) liveFrames++;
    seqs.push(...frame.events.map((e) => e.seq));
  });
  socket.on("tape:live", () => (live = true));
  socket.on("pod:delta", ({ fromSeq, seq }) => void notices.push({ fromSeq, seq }));
  const until = async (seq: number) => {
    for (const start = Date.now(); !live || (seqs.at(-1) ?? afterSeq) < seq; await sleep(10)) {
      if (Date.now() - start > 20_000)
        throw new Error(`saw ${seqs.length} events, last ${seqs.at(-1)}, live=${live}`);
    }
  };
  const noticeAt = async (seq: number) => {
    for (const start = Date.now(); (notices.at(-1)?.seq ?? 0) < seq; await sleep(10)) {
      if (Date.now() - start > 20_000) throw new Error(`notices up to ${notices.at(-1)?.seq}, not ${seq}`);
    }
  };
  return {
    seqs,
    notices,
    liveFrames: () => liveFrames,
    until,
    noticeAt,
    isLive: () => live,
    close: () => socket.close(),
  };
}

describe.each(testProviders())("paced live frames on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    // Four socket-frames a second per pod: any spectator makes its pod's window the longest.
    s = await startTestServer(provider, { PODWATCH_SOCKET_FRAMES_PER_SECOND: "4" });
  });
  afterAll(() => s.stop());

  it("gathers a busy pod's commits into fewer frames, and a spectator joining meanwhile misses nothing and gets nothing twice", async () => {
    const podId: string = (await api(s.url, "POST", "/api/v1/pods", { name: "paced", mode: "collaboration" }))
      .body.id;
    const seeded = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      events: Array.from({ length: 300 }, (_, i) => note(`old ${i}`)),
    });
    expect(seeded.status).toBe(201);
    const head = (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount as number;
    const watching = [spectator(s.url, podId, head), spectator(s.url, podId, head)];
    for (const w of watching) await w.until(head);

    const COMMITS = 40;
    let joiner: ReturnType<typeof spectator> | null = null;
    let last = head;
    for (let i = 0; i < COMMITS; i++) {
      const r = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, note(`live ${i}`));
      expect(r.status).toBe(201);
      last = r.body.events[0].seq;
      if (i === COMMITS / 2) joiner = spectator(s.url, podId, 0); // its backlog and hand-over overlap the writes
    }
    for (const w of [...watching, joiner!]) await w.until(last);

    for (const w of watching) {
      expect(w.seqs).toEqual(seqRange(head, last));
      expect(w.liveFrames()).toBeLessThan(COMMITS);
    }
    expect(joiner!.seqs).toEqual(seqRange(0, last));
    for (const w of watching) {
      await w.noticeAt(last);
      // Each notice starts where the one before it ended: a view kept by them misses no change.
      for (let i = 1; i < w.notices.length; i++) expect(w.notices[i]!.fromSeq).toBe(w.notices[i - 1]!.seq);
      expect(w.notices.at(-1)!.seq).toBe(last);
    }
    for (const w of [...watching, joiner!]) w.close();
  });
});
