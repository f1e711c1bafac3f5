// Property: whatever mix of valid and invalid events agents send, the state
// the append path keeps equals the replay of the events it accepted — so a
// projection can always be rebuilt from the tape, exactly.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { ZEventInput } from "../events/event-schemas";
import { applyEvent, replay } from "./apply-event";
import { emptyPodState, type AppliedEvent } from "./pod-state";

const HASH = "c".repeat(64);
const member = fc.constantFrom("a", "b", "h", "ghost");
const actor = fc.constantFrom("a", "b", "h", "ghost");
const task = fc.constantFrom("t1", "t2", "t3");
const run = fc.constantFrom("r1", "r2");
const bundle = fc.constantFrom("e1", "e2");
const esc = fc.constantFrom("x1", "x2");
const role = fc.constantFrom("implementer", "reviewer", "chair", "contract_guardian");
const status = fc.constantFrom("pending", "in_progress", "blocked", "cancelled", "done", "in_review");

const common = [
  fc.record({
    type: fc.constant("member.joined"),
    actor,
    body: fc.record({
      memberId: member,
      kind: fc.constantFrom("agent", "human"),
      displayName: fc.constant("M"),
      access: fc.constantFrom(undefined, "viewer", "approver", "admin"),
    }),
  }),
  fc.record({
    type: fc.constant("access.granted"),
    actor,
    body: fc.record({ memberId: member, access: fc.constantFrom("viewer", "approver", "admin") }),
  }),
  fc.record({ type: fc.constant("role.assigned"), actor, body: fc.record({ memberId: member, role }) }),
  fc.record({
    type: fc.constant("role.rotated"),
    actor,
    body: fc.record({ role, from: member, to: member }),
  }),
  fc.record({
    type: fc.constant("pod.scope_agreed"),
    actor,
    body: fc.constant({ scope: "s", successCriteria: ["c"] }),
  }),
  fc.record({
    type: fc.constantFrom("pod.started", "pod.paused", "pod.resumed"),
    actor,
    body: fc.constant({}),
  }),
  fc.record({
    type: fc.constant("task.added"),
    actor,
    body: fc.record({
      taskId: task,
      description: fc.constant("d"),
      dependsOn: fc.subarray(["t1", "t2", "t3"]),
    }),
  }),
  fc.record({
    type: fc.constant("task.updated"),
    actor,
    body: fc.record({ taskId: task, status, blockedReason: fc.constant("r") }),
  }),
  fc.record({
    type: fc.constant("task.review_requested"),
    actor,
    body: fc.record({ taskId: task, evidenceIds: fc.subarray(["e1", "e2"]) }),
  }),
  fc.record({
    type: fc.constant("review"),
    actor,
    body: fc.record({ taskId: task, verdict: fc.constantFrom("approve", "reject", "changes_requested") }),
  }),
  fc.record({
    type: fc.constant("decision"),
    actor,
    body: fc.record({
      subject: fc.record({
        kind: fc.constantFrom("task", "job", "plan"),
        id: fc.constantFrom("t1", "t2", "j1", "plan"),
      }),
      verdict: fc.constantFrom("approve", "reject", "accept", "block"),
      rationale: fc.constant("r"),
    }),
  }),
  fc.record({
    type: fc.constant("evidence.bundle"),
    actor,
    body: fc.record({
      bundleId: bundle,
      commands: fc.constantFrom([{ command: "t", exit_code: 0 }], [{ command: "t", exit_code: 1 }]),
      artifacts: fc.constant([]),
      env: fc.constant({ commit: "c" }),
      manifestHash: fc.constant(HASH),
    }),
  }),
  fc.record({
    type: fc.constant("escalation"),
    actor,
    body: fc.record({ escalationId: esc, kind: fc.constant("intent"), question: fc.constant("q?") }),
  }),
  fc.record({
    type: fc.constant("escalation.answered"),
    actor,
    body: fc.record({ escalationId: esc, answer: fc.constant("yes") }),
  }),
  fc.record({
    type: fc.constant("handoff"),
    actor,
    body: fc.record({ to: member, reason: fc.constant("r") }),
  }),
  fc.record({
    type: fc.constant("run.started"),
    actor,
    body: fc.record({ runId: run, workItemId: fc.constant("w"), mood: fc.constant("M") }),
  }),
  fc.record({
    type: fc.constant("run.verified"),
    actor,
    body: fc.record({ runId: run, by: fc.constantFrom("self", "director"), passed: fc.boolean() }),
  }),
  fc.record({
    type: fc.constant("run.committed"),
    actor,
    body: fc.record({ runId: run, commit: fc.constant("abc") }),
  }),
  fc.record({
    type: fc.constant("run.discarded"),
    actor,
    body: fc.record({ runId: run, reason: fc.constant("r") }),
  }),
  fc.record({
    type: fc.constant("note"),
    actor,
    body: fc.constant({ kind: "STATUS", text: "n" }),
    runId: run,
  }),
  fc.record({
    type: fc.constant("job.posted"),
    actor,
    body: fc.constant({
      jobId: "j1",
      scope: "s",
      acceptanceTests: ["t"],
      settlement: { amount: 1, currency: "EUR", terms: "t" },
    }),
  }),
  fc.record({
    type: fc.constantFrom("job.funded", "job.delivered"),
    actor,
    body: fc.constant({ jobId: "j1" }),
  }),
  fc.record({
    type: fc.constant("job.settled"),
    actor,
    body: fc.record({ jobId: fc.constant("j1"), outcome: fc.constantFrom("released", "refunded") }),
  }),
  fc.record({
    type: fc.constant("checkpoint"),
    actor,
    body: fc.record({
      completed: fc.constant(["x"]),
      next: fc.constant([]),
      blocked: fc.constant([]),
      taskId: task,
    }),
  }),
  fc.record({
    type: fc.constant("plan.review"),
    actor,
    body: fc.record({ verdict: fc.constantFrom("APPROVE", "BLOCK") }),
    role: fc.constantFrom("contract_guardian", "cost_controller"),
  }),
];
// Closing a pod ends its tape, so it is rare.
const event = fc.oneof(...common.map((arbitrary) => ({ arbitrary, weight: 30 })), {
  arbitrary: fc.record({ type: fc.constant("pod.closed"), actor, body: fc.constant({}) }),
  weight: 1,
});

/** What the write path does: apply each event; keep it only if no rule refused it. */
function ingest(inputs: unknown[]) {
  let state = emptyPodState();
  const accepted: AppliedEvent[] = [];
  const states = [state];
  for (const input of inputs) {
    const parsed = ZEventInput.parse(input);
    const e = { ...parsed, seq: state.seq + 1, receivedAt: "2026-11-22T00:00:00.000Z" } as AppliedEvent;
    try {
      state = applyEvent(state, e);
    } catch (err) {
      if (!(err instanceof AppError) || ![409, 422].includes(err.status)) throw err;
      continue;
    }
    accepted.push(e);
    states.push(state);
  }
  return { state, accepted, states };
}

describe("replaying the tape rebuilds the projections exactly", () => {
  it("for random sequences of valid and invalid events", () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 120 }), (inputs) => {
        const { state, accepted, states } = ingest(inputs);
        const rebuilt = replay(accepted, emptyPodState());
        expect(rebuilt).toEqual(state);
        // What is stored is JSON: the state must survive the round trip unchanged.
        expect(JSON.parse(JSON.stringify(state))).toEqual(state);
        // Time travel: replaying a prefix gives the state as it was then.
        const cut = Math.floor(accepted.length / 2);
        expect(replay(accepted.slice(0, cut), emptyPodState())).toEqual(states[cut]);
      }),
      { numRuns: 300 },
    );
  });

  it("the generator exercises both accepted and refused events", () => {
    const { accepted } = ingest(fc.sample(fc.oneof(...common), { numRuns: 2000, seed: 7 }));
    expect(accepted.length).toBeGreaterThan(50);
    expect(accepted.length).toBeLessThan(2000);
    expect(new Set(accepted.map((e) => e.type)).size).toBeGreaterThan(15);
  });
});
