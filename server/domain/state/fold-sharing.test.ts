// The fold shares what an event did not touch (shared-record.ts): the states it handed out must
// stay as they were, a state parsed from JSON (a snapshot, a checkpoint) must fold on to the
// very same JSON, and what the cadence watch counts by the change must equal a fresh count.
import { describe, expect, it } from "vitest";
import { ZEventInput } from "../events/event-schemas";
import { applyEvent, replay } from "./apply-event";
import { watchedAgents } from "./cadence";
import { emptyPodState, type AppliedEvent, type PodState } from "./pod-state";
import { isShared } from "./shared-record";

const HASH = "d".repeat(64);
const TASKS = 40;
const id = (i: number) => `task_${String(i).padStart(3, "0")}`;

/** A working pod: three agents and an approver, a 40-task plan taken through the loop, escalations left open. */
function tape(): object[] {
  const out: object[] = [];
  for (const [m, kind, role] of [
    ["impl", "agent", "implementer"],
    ["impl2", "agent", "implementer"],
    ["rev", "agent", "reviewer"],
    ["chair", "agent", "chair"],
  ] as const) {
    out.push(
      { type: "member.joined", actor: "admin", body: { memberId: m, kind, displayName: m } },
      { type: "role.assigned", actor: "admin", body: { memberId: m, role } },
    );
  }
  out.push({
    type: "member.joined",
    actor: "admin",
    body: { memberId: "ann", kind: "human", displayName: "Ann", access: "approver" },
  });
  out.push(
    { type: "pod.scope_agreed", actor: "chair", body: { scope: "s", successCriteria: ["c"] } },
    { type: "pod.started", actor: "chair", body: {} },
  );
  const tasks = Array.from({ length: TASKS }, (_, i) => ({
    task_id: id(i),
    description: `d${i}`,
    status: "pending",
    depends_on: i > 30 ? [id(i - 1)] : [],
    metadata: { i },
  }));
  out.push({ type: "plan.imported", actor: "chair", body: { plan: { tasks } } });
  for (let i = 0; i < 30; i++) {
    const who = i % 3 ? "impl" : "impl2";
    const taskId = id(i);
    out.push({ type: "task.updated", actor: who, body: { taskId, status: "in_progress" } });
    out.push({
      type: "evidence.bundle",
      actor: who,
      taskId,
      body: {
        bundleId: `ev${i}`,
        commands: [{ command: "t", exit_code: 0 }],
        artifacts: [],
        env: { commit: "c" },
        manifestHash: HASH,
      },
    });
    out.push({
      type: "escalation",
      actor: who,
      body: { escalationId: `x${i}`, kind: "intent", question: `q${i}?`, evidenceIds: [`ev${i}`] },
    });
    out.push({ type: "checkpoint", actor: who, body: { completed: ["x"], next: [], blocked: [], taskId } });
    if (i % 4 === 3) continue; // left in progress: its implementer stays watched
    out.push({ type: "task.review_requested", actor: who, body: { taskId, evidenceIds: [`ev${i}`] } });
    out.push({
      type: "review",
      actor: "rev",
      body: { taskId, verdict: i % 6 === 1 ? "changes_requested" : "approve", evidenceIds: [`ev${i}`] },
    });
    if (i % 6 !== 1)
      out.push({
        type: "decision",
        actor: "chair",
        body: {
          subject: { kind: "task", id: taskId },
          verdict: "approve",
          rationale: "r",
          evidenceIds: [`ev${i}`],
        },
      });
    if (i % 7 === 0)
      out.push({ type: "escalation.answered", actor: "ann", body: { escalationId: `x${i}`, answer: "yes" } });
  }
  out.push(
    { type: "pod.paused", actor: "chair", body: {} },
    { type: "pod.resumed", actor: "chair", body: {} },
  );
  return out;
}

function fold(
  from: PodState,
  inputs: object[],
  first: number,
): { states: PodState[]; events: AppliedEvent[] } {
  let s = from;
  const states: PodState[] = [];
  const events: AppliedEvent[] = [];
  inputs.forEach((input, i) => {
    const e = {
      ...ZEventInput.parse(input),
      seq: s.seq + 1,
      receivedAt: new Date(Date.UTC(2026, 10, 1, 8, 0, first + i)).toISOString(),
    } as AppliedEvent;
    s = applyEvent(s, e);
    states.push(s);
    events.push(e);
  });
  return { states, events };
}

describe("the fold shares what an event did not touch", () => {
  const inputs = tape();
  const { states, events } = fold(emptyPodState(), inputs, 0);
  const last = states.at(-1)!;

  it("builds shared records on a working pod (the rest of this file tests them, not plain objects)", () => {
    for (const key of ["tasks", "evidence", "escalations", "inbox"] as const)
      expect(isShared(last[key]), key).toBe(true);
  });

  it("leaves every state it handed out as it was", () => {
    const json = states.map((s) => JSON.stringify(s));
    // Fold the tape again onto every tenth state: newer events must not reach the older states.
    for (let cut = 0; cut < states.length; cut += 10) fold(states[cut]!, inputs.slice(cut + 1), cut + 1);
    states.forEach((s, i) => expect(JSON.stringify(s), `state after seq ${i + 1}`).toBe(json[i]));
  });

  it("folds on from a parsed snapshot to the very same JSON, and replays to it", () => {
    for (const cut of [12, 40, Math.floor(states.length / 2), states.length - 3]) {
      const parsed = JSON.parse(JSON.stringify(states[cut - 1])) as PodState;
      const { states: on } = fold(parsed, inputs.slice(cut), cut);
      expect(JSON.stringify(on.at(-1)), `from seq ${cut}`).toBe(JSON.stringify(last));
    }
    expect(JSON.stringify(replay(events, emptyPodState()))).toBe(JSON.stringify(last));
  });

  it("watches the agents a fresh count of the plan names, after every event", () => {
    let watchedSome = false;
    for (const s of states) {
      const fresh = watchedAgents(JSON.parse(JSON.stringify(s)) as PodState);
      expect([...watchedAgents(s)].sort()).toEqual([...fresh].sort());
      const since = Object.entries(s.cadence)
        .filter(([, c]) => c.watchedSince)
        .map(([agent]) => agent);
      expect(since.sort()).toEqual([...fresh].sort());
      watchedSome ||= fresh.size > 1;
    }
    expect(watchedSome).toBe(true);
  });
});
