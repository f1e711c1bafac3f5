import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../domain/plan-append";
import { emptyPodState, PROJECTION_VERSION } from "../domain/state/pod-state";
import { PodStateCache } from "./pod-state-cache";

const row = (seq: number, type: string, actor: string, body: object, ts: string | null = null): StoredEvent => ({
  id: `e${seq}`, podId: "p", seq, type, actor, role: null, ts, receivedAt: "2026-11-22T10:00:00.000Z",
  body: JSON.stringify(body), meta: null, prevHash: "0".repeat(64), hash: "1".repeat(64),
});

describe("stored pod states of another projection version", () => {
  const tape = [row(1, "member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "impl" }), row(2, "checkpoint", "impl", { completed: ["a"], next: [], blocked: [] }, "2001-01-01T00:00:00.000Z")];
  const readAfter = (seq: number) => tape.filter((e) => e.seq > seq);

  it("are rebuilt by replaying the tape, not trusted", () => {
    const outdated = { ...emptyPodState(), v: PROJECTION_VERSION - 1, seq: 2, lastCheckpoint: { seq: 2, at: "2001-01-01T00:00:00.000Z", actor: "impl" } };
    const state = new PodStateCache().loadSync("p", { seq: 2, hash: "1".repeat(64) }, () => ({ seq: 2, state: JSON.stringify(outdated) }), readAfter);
    expect(state.v).toBe(PROJECTION_VERSION);
    expect(state.lastCheckpoint).toEqual({ seq: 2, at: "2026-11-22T10:00:00.000Z", actor: "impl" });
  });

  it("of this version are used as stored", () => {
    const current = { ...emptyPodState(), seq: 2, status: "paused" as const };
    const state = new PodStateCache().loadSync("p", { seq: 2, hash: "1".repeat(64) }, () => ({ seq: 2, state: JSON.stringify(current) }), readAfter);
    expect(state.status).toBe("paused");
  });

  it("whose tape breaks a rule added since are kept as stored, so the pod stays readable", () => {
    // A bundle for a task the pod never had: accepted before bundles had to name a real task.
    const older = [tape[0]!, { ...row(2, "evidence.bundle", "impl", { bundleId: "b1", commands: [], artifacts: [], env: { commit: "c" }, manifestHash: "a".repeat(64) }), meta: JSON.stringify({ taskId: "ghost" }) }];
    const stored = { ...emptyPodState(), v: PROJECTION_VERSION - 1, seq: 2, status: "active" as const };
    const state = new PodStateCache().loadSync("p", { seq: 2, hash: "1".repeat(64) }, () => ({ seq: 2, state: JSON.stringify(stored) }), (seq) => older.filter((e) => e.seq > seq));
    expect(state).toMatchObject({ v: PROJECTION_VERSION, seq: 2, status: "active" });
  });
});
