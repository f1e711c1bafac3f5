// The sequencer on its own: a tape held in an array stands for what is
// committed. The real store and connections are in postgres-bus.integration.test.ts.
import { describe, expect, it } from "vitest";
import type { TapeEvent } from "../wire/events";
import { BusSequencer, type SequencerLimits } from "./bus-sequencer";

const ev = (seq: number) => ({ seq }) as TapeEvent;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ev(from + i));

function setup(limits: Partial<SequencerLimits> = {}) {
  const committed: TapeEvent[] = []; // pod "p"'s tape
  const out: number[] = [];
  const reads: Array<[number, number]> = [];
  let failNext = 0;
  let gate: Promise<void> = Promise.resolve();
  const seq = new BusSequencer(
    async (_pod, after, limit) => {
      await gate;
      if (failNext > 0) throw (failNext--, new Error("down"));
      reads.push([after, limit]);
      return committed.filter((e) => e.seq > after).slice(0, limit);
    },
    (_pod, events) => out.push(...events.map((e) => e.seq)),
    { retryMs: 1, ...limits },
  );
  const commit = (from: number, to: number) => (committed.push(...range(from, to)), range(from, to));
  const settled = async () => {
    for (let i = 0; i < 200 && seq.catchingUp(); i++) await new Promise((r) => setTimeout(r, 1));
  };
  return {
    seq,
    out,
    reads,
    commit,
    settled,
    failReads: (n: number) => (failNext = n),
    hold: (p: Promise<void>) => (gate = p),
  };
}

describe("the bus sequencer", () => {
  it("delivers a local batch that follows on synchronously, and an unknown pod's first batch at once", () => {
    const s = setup();
    s.seq.local("p", s.commit(1, 3));
    expect(s.out).toEqual([1, 2, 3]);
    s.seq.local("p", s.commit(4, 4));
    expect(s.out).toEqual([1, 2, 3, 4]);
    expect(s.reads).toEqual([]);
  });

  it("reads the seqs another node committed in between before the local batch that follows them", async () => {
    const s = setup();
    s.seq.local("p", s.commit(1, 2));
    s.commit(3, 5); // another node; its notification is not here yet
    s.seq.local("p", s.commit(6, 7));
    expect(s.out).toEqual([1, 2]); // waits for the read
    await s.settled();
    expect(s.out).toEqual([1, 2, 3, 4, 5, 6, 7]);
    s.seq.remote("p", 3, 5); // the late notification: already delivered
    await s.settled();
    expect(s.out).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("queues local batches that arrive while it reads, and reads again past the one that leaves a new gap", async () => {
    const s = setup();
    let open!: () => void;
    s.seq.seed("p", 0);
    s.commit(1, 2);
    s.hold(new Promise<void>((r) => (open = r)));
    s.seq.remote("p", 1, 2);
    s.seq.local("p", s.commit(3, 3));
    s.commit(4, 4); // another node again
    s.seq.local("p", s.commit(5, 6));
    s.seq.remote("p", 4, 4);
    open();
    await s.settled();
    expect(s.out).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("reads a remote range of a pod it does not know from the notice's first seq", async () => {
    const s = setup();
    s.commit(1, 10);
    s.seq.remote("p", 8, 10);
    await s.settled();
    expect(s.out).toEqual([8, 9, 10]);
    expect(s.reads[0]).toEqual([7, 3]);
  });

  it("reads in pages, and tries a failed read again", async () => {
    const s = setup({ pageSize: 4 });
    s.seq.seed("p", 0);
    s.commit(1, 10);
    s.failReads(2);
    s.seq.remote("p", 1, 10);
    await s.settled();
    expect(s.out).toEqual(range(1, 10).map((e) => e.seq));
    expect(s.reads.map(([, limit]) => limit)).toEqual([4, 4, 2]);
  });

  it("drops a queue past its bound and reads it back from the store instead", async () => {
    const s = setup({ maxQueued: 3 });
    let open!: () => void;
    s.seq.seed("p", 0);
    s.commit(1, 1);
    s.hold(new Promise<void>((r) => (open = r)));
    s.seq.remote("p", 1, 1);
    for (let i = 2; i <= 9; i++) s.seq.local("p", s.commit(i, i));
    open();
    await s.settled();
    expect(s.out).toEqual(range(1, 9).map((e) => e.seq));
    expect(s.reads.at(-1)![0]).toBeLessThan(9); // the overflow was read, not replayed from memory
  });

  it("forgets the least recently used pods past its bound", () => {
    const s = setup({ maxPods: 2 });
    s.seq.local("a", [ev(1)]);
    s.seq.local("b", [ev(1)]);
    s.seq.local("a", [ev(2)]);
    s.seq.local("c", [ev(1)]);
    expect([...s.seq.known().keys()]).toEqual(["a", "c"]);
  });

  it("does not spin when the store has less than a queued batch waits for", async () => {
    const s = setup();
    s.seq.local("p", s.commit(1, 1));
    s.seq.local("p", [ev(5)]); // 2..4 are not in this store (a forgotten pod's range): it goes out after the read finds nothing
    await s.settled();
    expect(s.out).toEqual([1, 5]);
  });

  it("reads a few pods back at a time, not every pod at once", async () => {
    let inFlight = 0;
    let most = 0;
    const out: string[] = [];
    const seq = new BusSequencer(
      async (pod, after, limit) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 2));
        inFlight--;
        return range(after + 1, after + limit).map((e) => ({ ...e, podId: pod }));
      },
      (pod, events) => out.push(...events.map((e) => `${pod}:${e.seq}`)),
      { concurrentReads: 2, retryMs: 1 },
    );
    const pods = Array.from({ length: 10 }, (_, i) => `p${i}`);
    for (const p of pods) seq.seed(p, 0);
    await Promise.all(pods.map((p) => seq.remote(p, 1, 3)));
    expect(most).toBe(2);
    expect(out.length).toBe(30);
    expect(seq.catchingUp()).toBe(0);
  });

  it("keeps a pod being read back when the LRU is full, rather than reading its tape again from the start", async () => {
    const s = setup({ maxPods: 2 });
    let open!: () => void;
    s.seq.seed("p", 0);
    s.commit(1, 3);
    s.hold(new Promise<void>((r) => (open = r)));
    const read = s.seq.remote("p", 3, 3); // known at 0: reads 1..3
    s.seq.local("a", [ev(1)]);
    s.seq.local("b", [ev(1)]); // p is the least recently used, but it is being read
    expect([...s.seq.known().keys()].sort()).toEqual(["b", "p"].sort());
    open();
    await read;
    expect(s.out).toEqual([1, 1, 1, 2, 3]); // a's and b's first events, then p's tape once
    expect(s.reads).toEqual([[0, 3]]);
  });

  it("cuts what it reads into the pages the store's reader gave: a short page sets the next one's size", async () => {
    const s = setup({ pageSize: 8, firstRead: 8 });
    s.seq.seed("p", 0);
    s.commit(1, 6);
    const short = new BusSequencer(
      async (_pod, after, limit) => (
        s.reads.push([after, limit]),
        range(after + 1, Math.min(after + Math.min(limit, 2), 6))
      ), // "2 fit in a frame"
      (_pod, events) => s.out.push(events.length),
      { pageSize: 8, firstRead: 8, retryMs: 1 },
    );
    short.seed("p", 0);
    await short.remote("p", 1, 6);
    expect(s.out).toEqual([2, 2, 2]);
    expect(s.reads).toEqual([
      [0, 6],
      [2, 2],
      [4, 2],
    ]);
  });
});
