import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../plan-append";
import { catchUp, catchUpAsync, catchUpSync } from "./catch-up";
import { emptyPodState } from "./pod-state";

const row = (seq: number, type: string, body: object): StoredEvent => ({
  id: `e${seq}`,
  podId: "p",
  seq,
  type,
  actor: "admin",
  role: null,
  ts: null,
  receivedAt: "2026-11-22T10:00:00.000Z",
  body: JSON.stringify(body),
  meta: null,
  prevHash: "0".repeat(64),
  hash: "1".repeat(64),
});
const joined = (seq: number, memberId: string) =>
  row(seq, "member.joined", { memberId, kind: "agent", displayName: memberId });
const tape = [joined(1, "a"), joined(2, "b"), joined(3, "c")];
const read = (after: number, limit: number) => tape.filter((e) => e.seq > after).slice(0, limit);

describe("catching a state up with the tape", () => {
  it("asks for pages no further than the seq it stops at", () => {
    const steps = catchUp(emptyPodState(), 2, 1);
    expect(steps.next().value).toEqual({ afterSeq: 0, limit: 1 });
    expect(steps.next(read(0, 1)).value).toEqual({ afterSeq: 1, limit: 1 });
    const done = steps.next(read(1, 1));
    if (!done.done) throw new Error("asked for a page past seq 2");
    expect(done.value.seq).toBe(2);
    expect(Object.keys(done.value.members)).toEqual(["a", "b"]);
  });

  it("gives the same state read synchronously or not, and stops where the tape ends", async () => {
    const sync = catchUpSync(emptyPodState(), 2, read);
    expect(sync).toEqual(await catchUpAsync(emptyPodState(), 2, async (a, l) => read(a, l)));
    expect(sync.seq).toBe(2);
    expect(catchUpSync(emptyPodState(), 10, read).seq).toBe(3);
  });
});
