// The coalescer on the in-process bus, under fake timers: which commits share a frame, in which
// order frames go out, and that a paced pod's window neither loses, repeats nor reorders events.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { InProcessBus } from "../tape/in-process-bus";
import type { TapeEvent } from "../wire/events";
import { coalesceCommits, type Coalescer } from "./tape-broadcaster";

const event = (podId: string, seq: number): TapeEvent => ({
  id: `${podId}-${seq}`,
  podId,
  seq,
  type: "note",
  actor: "impl",
  role: null,
  ts: null,
  receivedAt: "2026-01-01T00:00:00.000Z",
  body: { kind: "STATUS", text: `event ${seq}` },
  meta: null,
  prevHash: "0".repeat(64),
  hash: "1".repeat(64),
});

describe("coalesceCommits", () => {
  let bus: InProcessBus;
  let frames: { podId: string; seqs: number[] }[];
  let coalescer: Coalescer | null;
  const heads = new Map<string, number>();
  /** Commits `n` events to `podId`, each in a commit of its own, as single-event POSTs do. */
  const commit = (podId: string, n = 1) => {
    for (let i = 0; i < n; i++) {
      const seq = (heads.get(podId) ?? 0) + 1;
      heads.set(podId, seq);
      bus.emit("committed", { podId, events: [event(podId, seq)] });
    }
  };
  const start = (windowMs: (podId: string) => number) => {
    coalescer = coalesceCommits(
      bus,
      (podId, events) => void frames.push({ podId, seqs: events.map((e) => e.seq) }),
      windowMs,
    );
  };
  const seqsOf = (podId: string) => frames.filter((f) => f.podId === podId).flatMap((f) => f.seqs);

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate"] });
    bus = new InProcessBus();
    frames = [];
    heads.clear();
    coalescer = null;
  });
  afterEach(() => {
    coalescer?.stop();
    vi.useRealTimers();
  });

  it("sends a turn's commits of a pod as one frame, after the turn", async () => {
    start(() => 0);
    commit("a", 3);
    expect(frames).toEqual([]);
    await vi.advanceTimersToNextTimerAsync();
    expect(frames).toEqual([{ podId: "a", seqs: [1, 2, 3] }]);
    commit("a");
    await vi.advanceTimersToNextTimerAsync();
    expect(frames).toEqual([
      { podId: "a", seqs: [1, 2, 3] },
      { podId: "a", seqs: [4] },
    ]);
  });

  it("sends a quiet paced pod's commit at once, then gathers what comes within its window into one frame at the window's end", async () => {
    start(() => 50);
    commit("a");
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([{ podId: "a", seqs: [1] }]); // no window yet: no wait
    for (let i = 0; i < 10; i++) {
      commit("a");
      await vi.advanceTimersByTimeAsync(4);
    }
    expect(frames).toHaveLength(1); // 40 ms into the window
    await vi.advanceTimersByTimeAsync(10);
    expect(frames).toEqual([
      { podId: "a", seqs: [1] },
      { podId: "a", seqs: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
    ]);
  });

  it("keeps every event, once and in order, across windows while commits keep coming", async () => {
    start(() => 20);
    for (let t = 0; t < 500; t++) {
      commit("a", t % 7 === 0 ? 3 : 1);
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(100);
    const head = heads.get("a")!;
    expect(seqsOf("a")).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    // One frame per window, plus the first: far fewer frames than commits.
    expect(frames.length).toBeLessThanOrEqual(Math.ceil(500 / 20) + 2);
  });

  it("forgets a window that passed without commits: the next commit goes out at once", async () => {
    start(() => 30);
    commit("a");
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(100); // the window closes with nothing to send
    commit("a");
    await vi.advanceTimersByTimeAsync(0);
    expect(frames).toEqual([
      { podId: "a", seqs: [1] },
      { podId: "a", seqs: [2] },
    ]);
  });

  it("paces each pod by its own window", async () => {
    start((podId) => (podId === "busy" ? 100 : 0));
    commit("busy");
    commit("quiet");
    await vi.advanceTimersByTimeAsync(0);
    commit("busy");
    commit("quiet");
    await vi.advanceTimersByTimeAsync(0);
    expect(seqsOf("quiet")).toEqual([1, 2]); // unpaced: each turn's commit at once
    expect(seqsOf("busy")).toEqual([1]); // its second waits for the window
    await vi.advanceTimersByTimeAsync(100);
    expect(seqsOf("busy")).toEqual([1, 2]);
  });

  it("sends nothing more once stopped", async () => {
    start(() => 50);
    commit("a");
    await vi.advanceTimersByTimeAsync(0);
    commit("a");
    coalescer!.stop();
    commit("a");
    await vi.advanceTimersByTimeAsync(200);
    expect(frames).toEqual([{ podId: "a", seqs: [1] }]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
