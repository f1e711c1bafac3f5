import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../domain/plan-append";
import { emptyPodState, PROJECTION_VERSION } from "../domain/state/pod-state";
import {
  PodStateCache,
  SNAPSHOT_CHARS_PER_EVENT,
  SNAPSHOT_MAX_STRETCH,
  snapshotLag,
} from "./pod-state-cache";

const row = (
  seq: number,
  type: string,
  actor: string,
  body: object,
  ts: string | null = null,
): StoredEvent => ({
  id: `e${seq}`,
  podId: "p",
  seq,
  type,
  actor,
  role: null,
  ts,
  receivedAt: "2026-11-22T10:00:00.000Z",
  body: JSON.stringify(body),
  meta: null,
  prevHash: "0".repeat(64),
  hash: "1".repeat(64),
});

describe("stored pod states of another projection version", () => {
  const tape = [
    row(1, "member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "impl" }),
    row(2, "checkpoint", "impl", { completed: ["a"], next: [], blocked: [] }, "2001-01-01T00:00:00.000Z"),
  ];
  const readAfter = (seq: number) => tape.filter((e) => e.seq > seq);

  it("are rebuilt by replaying the tape, not trusted", () => {
    const outdated = {
      ...emptyPodState(),
      v: PROJECTION_VERSION - 1,
      seq: 2,
      lastCheckpoint: { seq: 2, at: "2001-01-01T00:00:00.000Z", actor: "impl" },
    };
    const state = new PodStateCache().loadSync(
      "p",
      { seq: 2, hash: "1".repeat(64) },
      () => ({ seq: 2, state: JSON.stringify(outdated) }),
      readAfter,
    );
    expect(state.v).toBe(PROJECTION_VERSION);
    expect(state.lastCheckpoint).toEqual({ seq: 2, at: "2026-11-22T10:00:00.000Z", actor: "impl" });
  });

  it("of this version are used as stored", () => {
    const current = { ...emptyPodState(), seq: 2, status: "paused" as const };
    const state = new PodStateCache().loadSync(
      "p",
      { seq: 2, hash: "1".repeat(64) },
      () => ({ seq: 2, state: JSON.stringify(current) }),
      readAfter,
    );
    expect(state.status).toBe("paused");
  });

  it("whose tape breaks a rule added since are kept as stored, so the pod stays readable", () => {
    // A bundle for a task the pod never had: accepted before bundles had to name a real task.
    const older = [
      tape[0]!,
      {
        ...row(2, "evidence.bundle", "impl", {
          bundleId: "b1",
          commands: [],
          artifacts: [],
          env: { commit: "c" },
          manifestHash: "a".repeat(64),
        }),
        meta: JSON.stringify({ taskId: "ghost" }),
      },
    ];
    const stored = { ...emptyPodState(), v: PROJECTION_VERSION - 1, seq: 2, status: "active" as const };
    const state = new PodStateCache().loadSync(
      "p",
      { seq: 2, hash: "1".repeat(64) },
      () => ({ seq: 2, state: JSON.stringify(stored) }),
      (seq) => older.filter((e) => e.seq > seq),
    );
    expect(state).toMatchObject({ v: PROJECTION_VERSION, seq: 2, status: "active" });
  });
});

describe("the cached state and its snapshot", () => {
  const hash = "1".repeat(64);
  const tape = Array.from({ length: 10 }, (_, i) =>
    i === 0
      ? row(1, "member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "impl" })
      : row(i + 1, "note", "impl", { kind: "STATUS", text: `n${i}` }),
  );
  const reads: number[] = [];
  const readAfter = (seq: number, limit: number) => (
    reads.push(seq),
    tape.filter((e) => e.seq > seq).slice(0, limit)
  );
  const noRow = () => {
    throw new Error("the stored row is not read when the cache can catch up");
  };

  it("behind the head (another node appended) catches up by reading only the tail after its own seq", () => {
    const cache = new PodStateCache(100);
    const at4 = cache.loadSync("p", { seq: 4, hash }, () => undefined, readAfter);
    reads.length = 0;
    const at10 = cache.loadSync("p", { seq: 10, hash }, noRow, readAfter);
    expect(reads).toEqual([4]);
    expect(at10.seq).toBe(10);
    expect(at4.seq).toBe(4); // the state it started from is left as it was
  });

  it("a pod without a snapshot of this version gets one with its next commit; then every `every` events, after commit", () => {
    const cache = new PodStateCache(3);
    const s0 = cache.loadSync("p", { seq: 1, hash }, () => undefined, readAfter);
    expect(cache.lacksSnapshot("p")).toBe(true);
    cache.remember("p", { ...s0, seq: 2 }, true);
    expect(cache.lacksSnapshot("p")).toBe(false);
    cache.remember("p", { ...s0, seq: 4 });
    expect(cache.takeDue()).toEqual([]);
    cache.remember("p", { ...s0, seq: 5 });
    expect(cache.takeDue().map((d) => [d.podId, d.state.seq, d.before])).toEqual([["p", 5, 2]]);
    expect(cache.takeDue()).toEqual([]); // taken: not due again until 3 more events
    cache.snapshotFailed("p", 2);
    cache.remember("p", { ...s0, seq: 6 });
    expect(cache.takeDue().map((d) => d.state.seq)).toEqual([6]);
  });

  it("a snapshot loaded late never replaces a newer cached state", () => {
    const cache = new PodStateCache(100);
    cache.loadSync("p", { seq: 8, hash }, () => undefined, readAfter);
    cache.remember("p", cache.loadSync("p", { seq: 10, hash }, noRow, readAfter));
    const stale = cache.loadSync("p", { seq: 5, hash }, () => undefined, readAfter);
    expect(stale.seq).toBe(5);
    expect(cache.loadSync("p", { seq: 10, hash }, noRow, readAfter).seq).toBe(10);
  });

  it("past the head a read saw answers that read, from memory; a commit's load never plans on it", async () => {
    const cache = new PodStateCache(100);
    cache.remember(
      "p",
      cache.loadSync("p", { seq: 10, hash }, () => undefined, readAfter),
      true,
    );
    const noRowAsync = async () => noRow();
    const tail = async (seq: number, limit: number) => readAfter(seq, limit);
    // A read took the head at seq 6 just before this node committed up to 10.
    expect((await cache.load("p", { seq: 6, hash }, noRowAsync, tail, true)).seq).toBe(10);
    // Under the lock (no orNewer) the state must be at the head: the stored row and its tail.
    let storedRead = false;
    const stored = async () => ((storedRead = true), undefined);
    expect((await cache.load("p", { seq: 6, hash }, stored, tail)).seq).toBe(6);
    expect(storedRead).toBe(true);
    expect(cache.at("p", { seq: 10, hash })?.seq).toBe(10);
    expect(cache.at("p", { seq: 6, hash })).toBeNull();
  });

  it("a large state's snapshot waits until its text, spread over the events since, is small enough per event", () => {
    const cache = new PodStateCache(10);
    const s0 = cache.loadSync("p", { seq: 1, hash }, () => undefined, readAfter);
    cache.remember("p", { ...s0, seq: 1 }, true);
    // Its text is three times what ten events may carry: due after 30 events, not 10.
    cache.wroteSnapshot("p", 1, 3 * 10 * SNAPSHOT_CHARS_PER_EVENT);
    cache.remember("p", { ...s0, seq: 11 });
    expect(cache.takeDue()).toEqual([]);
    cache.remember("p", { ...s0, seq: 31 });
    expect(cache.takeDue().map((d) => d.state.seq)).toEqual([31]);
    // However large, at most SNAPSHOT_MAX_STRETCH times `every`.
    cache.wroteSnapshot("p", 31, 1e9);
    cache.remember("p", { ...s0, seq: 31 + 10 * SNAPSHOT_MAX_STRETCH - 1 });
    expect(cache.takeDue()).toEqual([]);
    cache.remember("p", { ...s0, seq: 31 + 10 * SNAPSHOT_MAX_STRETCH });
    expect(cache.takeDue().map((d) => d.state.seq)).toEqual([31 + 10 * SNAPSHOT_MAX_STRETCH]);
    // A length reported for a snapshot that is not the stored one changes nothing.
    cache.wroteSnapshot("p", 5, 1);
    expect(snapshotLag(10, null)).toBe(10);
  });

  it("a cached state behind by less than its snapshot's lag catches up from its own seq, not from the stored row", () => {
    const cache = new PodStateCache(2);
    cache.remember(
      "p",
      cache.loadSync("p", { seq: 3, hash }, () => undefined, readAfter),
      true,
    );
    cache.wroteSnapshot("p", 3, 4 * SNAPSHOT_CHARS_PER_EVENT); // may lag 4 events
    reads.length = 0;
    expect(cache.loadSync("p", { seq: 7, hash }, noRow, readAfter).seq).toBe(7);
    expect(reads).toEqual([3]);
  });
});
