// Property: whatever an agent (or many) sends, a pod stays appendable, readable, searchable and
// replayable, and its state stays under the stated size. The bounds are shrunk here so random
// histories reach them; the door is the append path's own (admit-event.ts after the rules).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { EVENT_BOUNDS } from "../events/event-bounds";
import { ZEventInput } from "../events/event-schemas";
import { podStateBound, POD_BOUNDS, type PodBounds } from "../pod-bounds";
import { acceptHistory, historyStep, TEAM_SETUP, type HistoryStep } from "../../testing/pod-history";
import { Tape } from "../../testing/reducer-tape";
import { SEED_DOCUMENTS } from "../../testing/sample-events";
import { CLOSING_SLACK, admitEvent } from "./admit-event";
import { applyEvent } from "./apply-event";
import { emptyPodState, type AppliedEvent, type PodState } from "./pod-state";
import type { Retained } from "./retained-entries";

const TINY: PodBounds = {
  ...POD_BOUNDS,
  tasks: 12,
  taskEvidence: 3,
  taskWorkcells: 2,
  members: 12,
  agents: 7,
  sessionAllowChars: 300,
  escalations: 4,
  evidence: 6,
  runs: 3,
  jobs: 3,
  workcells: 3,
  planBlocks: 2,
  retainedChars: 12_000,
};
const admit = (before: PodState, after: PodState, e: AppliedEvent) => admitEvent(before, after, e, TINY);

const worker = fc.constantFrom("impl", "rev", "rev2");
const text = (max: number) => fc.nat({ max }).map((n) => "w".repeat(n + 1));
const taskId = fc.integer({ min: 1, max: 20 }).map((n) => `t${n}`);
/** What grows a pod: plans with sizeable metadata, metadata merges, bundles, questions, runs, notes, members. */
const accumulating: fc.Arbitrary<HistoryStep>[] = [
  fc.record({
    type: fc.constant("plan.imported"),
    actor: worker,
    body: fc.record({
      plan: fc.record({
        tasks: fc.uniqueArray(
          fc.record({ task_id: taskId, description: text(200), metadata: fc.record({ m: text(3000) }) }),
          { selector: (t) => t.task_id, minLength: 1, maxLength: 5 },
        ),
      }),
    }),
  }),
  fc.record({
    type: fc.constant("task.updated"),
    actor: worker,
    body: fc.record({
      taskId,
      metadata: fc.dictionary(fc.constantFrom("a", "b", "c", "d"), text(4000), { minKeys: 1, maxKeys: 2 }),
    }),
  }),
  fc.record({
    type: fc.constant("evidence.bundle"),
    actor: worker,
    taskId,
    body: fc.record({
      bundleId: fc.nat(30).map((n) => `b${n}`),
      commands: fc.constant([{ command: "t", exit_code: 0 }]),
      artifacts: fc.constant([]),
      env: fc.record({
        commit: fc.constant("c"),
        tools: fc.dictionary(fc.constantFrom("node", "npm", "git"), text(500)),
      }),
      manifestHash: fc.constant("e".repeat(64)),
    }),
  }),
  fc.record({
    type: fc.constant("task.review_requested"),
    actor: worker,
    body: fc.record({
      taskId,
      evidenceIds: fc.uniqueArray(
        fc.nat(30).map((n) => `b${n}`),
        { maxLength: 4 },
      ),
    }),
  }),
  fc.record({
    type: fc.constant("escalation"),
    actor: worker,
    body: fc.record({
      escalationId: fc.nat(10).map((n) => `q${n}`),
      kind: fc.constant("intent"),
      question: text(2000),
    }),
  }),
  fc.record({
    type: fc.constant("escalation.answered"),
    actor: fc.constant("ana"),
    body: fc.record({ escalationId: fc.nat(10).map((n) => `q${n}`), answer: text(300) }),
  }),
  fc.record({
    type: fc.constant("run.started"),
    actor: worker,
    body: fc.record({
      runId: fc.nat(6).map((n) => `r${n}`),
      workItemId: fc.constant("w"),
      mood: fc.constant("M"),
    }),
  }),
  fc.record({
    type: fc.constant("note"),
    actor: worker,
    runId: fc.nat(6).map((n) => `r${n}`),
    body: fc.constant({ kind: "STATUS", text: "n" }),
  }),
  fc.record({
    type: fc.constant("run.discarded"),
    actor: worker,
    body: fc.record({ runId: fc.nat(6).map((n) => `r${n}`), reason: text(1000) }),
  }),
  fc.record({
    type: fc.constant("workcell.opened"),
    actor: worker,
    taskId: fc.option(taskId, { nil: undefined }),
    body: fc.nat(4).map((n) => ({ manifest: { ...SEED_DOCUMENTS.manifest, workcell_id: `wc${n}` } })),
  }),
  fc.record({
    type: fc.constant("workcell.proof"),
    actor: worker,
    body: fc.nat(4).map((n) => ({ proof: { ...SEED_DOCUMENTS.proof, workcell_id: `wc${n}` } })),
  }),
  fc.record({
    type: fc.constant("job.delivered"),
    actor: worker,
    body: fc.record({
      jobId: fc.integer({ min: 1, max: 6 }).map((n) => `j${n}`),
      evidenceIds: fc.uniqueArray(
        fc.nat(30).map((n) => `b${n}`),
        { maxLength: 3 },
      ),
    }),
  }),
  fc.record({
    type: fc.constant("member.joined"),
    actor: fc.constant("admin"),
    body: fc.record({
      memberId: fc.nat(12).map((n) => `m${n}`),
      kind: fc.constant("agent"),
      displayName: fc.constant("M"),
    }),
  }),
];
const step = fc.oneof(
  { arbitrary: historyStep(6), weight: 12 },
  ...accumulating.map((arbitrary) => ({ arbitrary, weight: 1 })),
);

const RETAINED: Retained[] = ["tasks", "evidence", "escalations", "runs", "jobs", "workcells"];
/** What the pod keeps for good, measured: state.retained must be exactly this. */
const measured = (s: PodState) =>
  RETAINED.reduce(
    (sum, key) => sum + Object.values(s[key]).reduce((n, v) => n + JSON.stringify(v).length, 0),
    0,
  );

function expectHealthy(state: PodState, events: AppliedEvent[], b: PodBounds) {
  // Readable: it serialises, and what is stored comes back unchanged.
  const json = JSON.stringify(state);
  expect(JSON.parse(json)).toEqual(state);
  expect(json.length).toBeLessThanOrEqual(podStateBound(b));
  // Within every bound the door keeps, and the count of what it keeps for good is exact.
  expect(state.retained).toBe(measured(state));
  expect(state.taskOrder.length).toBeLessThanOrEqual(b.tasks);
  expect(Object.values(state.members).filter((m) => m.kind === "agent").length).toBeLessThanOrEqual(b.agents);
  for (const key of [
    "members",
    "escalations",
    "evidence",
    "runs",
    "jobs",
    "workcells",
    "planBlocks",
  ] as const)
    expect(Object.keys(state[key]).length).toBeLessThanOrEqual(b[key]);
  // Replayable: the tape rebuilds it exactly; and no event it holds grew a pod past what it retains
  // for good by more than a closing decision or answer may.
  let s = emptyPodState();
  for (const e of events) {
    const after = applyEvent(s, e);
    if (after.retained > b.retainedChars)
      expect(after.retained - s.retained, `${e.type} at ${e.seq}`).toBeLessThanOrEqual(CLOSING_SLACK);
    s = after;
  }
  expect(s).toEqual(state);
  // Searchable: every stored body is JSON within one event's bounds (what search reads).
  for (const e of events) expect(JSON.stringify(e.body).length).toBeLessThanOrEqual(EVENT_BOUNDS.maxBytes);
  // Appendable: a note goes on; the next plan is accepted or refused by a rule (acceptHistory rethrows anything else).
  if (state.status !== "closed")
    expect(
      acceptHistory(
        state,
        [{ type: "note", actor: "impl", body: { kind: "STATUS", text: "on" } }],
        false,
        admit,
      ).events,
    ).toHaveLength(1);
  expect(() =>
    acceptHistory(
      state,
      [
        {
          type: "plan.imported",
          actor: "impl",
          body: { plan: { tasks: [{ task_id: "last", description: "d" }] } },
        },
      ],
      false,
      admit,
    ),
  ).not.toThrow();
}

describe("what a pod accumulates stays bounded", () => {
  it("any sequence of accepted events keeps the pod appendable, readable, searchable, replayable and under its stated size", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 150 }), (steps) => {
        const { state, events } = acceptHistory(
          emptyPodState(),
          [...TEAM_SETUP, ...steps] as HistoryStep[],
          true,
          admit,
        );
        expectHealthy(state, events, TINY);
      }),
      { numRuns: 150 },
    );
  });

  it("the generator reaches the bounds: some events are refused by them, and the pod still takes others after", () => {
    const steps = fc.sample(step, { numRuns: 1200, seed: 12 });
    const { state, events } = acceptHistory(
      emptyPodState(),
      [...TEAM_SETUP, ...steps] as HistoryStep[],
      true,
      admit,
    );
    const unbounded = acceptHistory(emptyPodState(), [...TEAM_SETUP, ...steps] as HistoryStep[], true);
    expect(unbounded.state.retained).toBeGreaterThan(TINY.retainedChars);
    expect(events.length).toBeLessThan(unbounded.events.length);
    expect(state.retained).toBeGreaterThan(TINY.retainedChars / 2);
    const kept = new Set(events.map((e) => e.type));
    for (const type of [
      "plan.imported",
      "task.updated",
      "evidence.bundle",
      "workcell.opened",
      "workcell.proof",
      "escalation.answered",
      "run.discarded",
      "job.delivered",
      "decision",
      "deadline.passed",
    ]) {
      expect(kept, type).toContain(type);
    }
    expectHealthy(state, events, TINY);
  });

  it("the stated size of a pod at the real bounds is finite and well under the longest string JavaScript holds", () => {
    expect(podStateBound()).toBeLessThan(256 * 1024 * 1024);
  });
});

describe("histories keep their newest entries; the tape keeps them all", () => {
  it("role changes, handoffs, decisions, a run's notes and an evidence bundle's links", () => {
    const t = Tape.team();
    for (let i = 0; i <= POD_BOUNDS.roleHistory / 2; i++)
      t.add("role.rotated", "admin", {
        role: "reviewer",
        from: i % 2 ? "orch" : "rev",
        to: i % 2 ? "rev" : "orch",
      });
    expect(t.state.roleHistory).toHaveLength(POD_BOUNDS.roleHistory);
    expect(t.state.roleHistory.at(-1)!.seq).toBe(t.state.seq);
    for (let i = 0; i <= POD_BOUNDS.handoffs; i++) t.add("handoff", "impl", { to: "rev", reason: `r${i}` });
    expect(t.state.handoffs).toHaveLength(POD_BOUNDS.handoffs);
    expect(t.state.handoffs[0]!.reason).toBe("r1");
    t.bundle("ev-1");
    for (let i = 0; i <= POD_BOUNDS.decisions; i++)
      t.add("decision", "chair-1", {
        subject: { kind: "milestone", id: "m" },
        verdict: "approve",
        rationale: `d${i}`,
        evidenceIds: ["ev-1"],
      });
    expect(t.state.decisions).toHaveLength(POD_BOUNDS.decisions);
    expect(t.state.decisions[0]!.rationale).toBe("d1");
    const links = t.state.evidence["ev-1"]!.links.decisions;
    expect(links).toHaveLength(POD_BOUNDS.evidenceLinks);
    expect(links.at(-1)).toBe(t.state.seq);
    t.add("run.started", "impl", { runId: "r1", workItemId: "w", mood: "M" });
    for (let i = 0; i <= POD_BOUNDS.runNotes; i++)
      t.add("note", "impl", { kind: "STATUS", text: "n" }, { runId: "r1" });
    expect(t.state.runs.r1!.noteSeqs).toHaveLength(POD_BOUNDS.runNotes);
    expect(t.state.runs.r1!.noteSeqs.at(-1)).toBe(t.state.seq);
    expect(t.state.retained).toBe(measured(t.state));
  });
});

describe("the door names the bound it refuses", () => {
  const refused = (t: Tape, type: string, actor: string, body: object, extra: object = {}) => {
    const before = t.state;
    const e = {
      ...ZEventInput.parse({ type, actor, body, ...extra }),
      seq: before.seq + 1,
      receivedAt: "2026-11-23T00:00:00.000Z",
    } as AppliedEvent;
    try {
      admitEvent(before, applyEvent(before, e), e, TINY);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(422);
      return err as AppError;
    }
    throw new Error(`${type} was admitted`);
  };

  it("tasks, a task's metadata, what it cites and what the pod retains", () => {
    const t = Tape.team();
    t.add("plan.imported", "impl", {
      plan: { tasks: Array.from({ length: TINY.tasks }, (_, i) => ({ task_id: `t${i}`, description: "d" })) },
    });
    expect(refused(t, "task.added", "impl", { taskId: "one-more", description: "d" }).message).toBe(
      `a pod keeps at most ${TINY.tasks} tasks; this event would make ${TINY.tasks + 1} (bound: tasks)`,
    );
    t.add("task.updated", "impl", { taskId: "t0", metadata: { a: "x".repeat(5000) } });
    expect(
      refused(t, "task.updated", "impl", { taskId: "t0", metadata: { b: "x".repeat(5000) } }).message,
    ).toMatch(
      /^task t0's metadata would be \d+ bytes as JSON, more than 8192 bytes \(bound: taskMetadataBytes\)$/,
    );
    for (const id of ["e1", "e2", "e3", "e4"]) t.bundle(id);
    t.add("task.updated", "impl", { taskId: "t1", status: "in_progress" });
    expect(
      refused(t, "task.review_requested", "impl", { taskId: "t1", evidenceIds: ["e1", "e2", "e3", "e4"] })
        .message,
    ).toContain("(bound: taskEvidence)");
    expect(
      refused(t, "escalation", "impl", { kind: "intent", question: "q".repeat(8000) }).message,
    ).toContain("(bound: retainedChars)");
    // A pod past what it retains still closes its work: a decision changes a few characters.
    t.add("task.review_requested", "impl", { taskId: "t1", evidenceIds: ["e1"] });
    t.add("review", "rev", { taskId: "t1", verdict: "approve" });
    const before = t.state;
    const full = { ...TINY, retainedChars: before.retained - 1 };
    const decision = {
      ...ZEventInput.parse({
        type: "decision",
        actor: "ana",
        body: { subject: { kind: "task", id: "t1" }, verdict: "approve", rationale: "ok" },
      }),
      seq: before.seq + 1,
      receivedAt: "2026-11-23T00:00:00.000Z",
    } as AppliedEvent;
    expect(() => admitEvent(before, applyEvent(before, decision), decision, full)).not.toThrow();
    const more = {
      ...ZEventInput.parse({
        type: "task.updated",
        actor: "impl",
        body: { taskId: "t2", metadata: { m: "x".repeat(300) } },
      }),
      seq: before.seq + 1,
      receivedAt: "2026-11-23T00:00:00.000Z",
    } as AppliedEvent;
    expect(() => admitEvent(before, applyEvent(before, more), more, full)).toThrow(/bound: retainedChars/);
  });
});

describe("each agent's own records", () => {
  const ask = (requestId: string, command: string) => ({
    requestId,
    toolUseId: `tu-${requestId}`,
    tool: "Bash",
    input: JSON.stringify({ command }),
    context: [],
    deadline: { inMinutes: 5, then: "answer", answer: "deny" },
  });
  const admitted = (t: Tape, type: string, actor: string, body: object, extra: object = {}) => {
    const before = t.state;
    const e = {
      ...ZEventInput.parse({ type, actor, body, ...extra }),
      seq: before.seq + 1,
      receivedAt: "2026-11-22T00:00:00.000Z",
    } as AppliedEvent;
    const after = applyEvent(before, e);
    admitEvent(before, after, e, TINY);
    t.state = after;
  };

  it("a pod has so many agents; people can still join", () => {
    const t = Tape.team(); // four agents and two people
    for (let i = 0; i < TINY.agents - 4; i++)
      admitted(t, "member.joined", "admin", { memberId: `a${i}`, kind: "agent", displayName: "A" });
    expect(() =>
      admitted(t, "member.joined", "admin", { memberId: "one-more", kind: "agent", displayName: "A" }),
    ).toThrow(/has at most 7 agent members; this event would make 8 \(bound: agents\)/);
    admitted(t, "member.joined", "admin", { memberId: "person", kind: "human", displayName: "P" });
  });

  it("a person's session allows for one agent are bounded: beyond, allow once", () => {
    const t = Tape.team();
    admitted(t, "session.started", "impl", { via: "claude-code" }, { sessionId: "s1" });
    for (let i = 0; ; i++) {
      admitted(
        t,
        "tool.approval.requested",
        "impl",
        ask(`r${i}`, `git push origin branch-${"x".repeat(40)}-${i}`),
        { sessionId: "s1" },
      );
      try {
        admitted(t, "tool.approval.answered", "ana", {
          requestId: `r${i}`,
          decision: "allow",
          remember: "session",
        });
      } catch (err) {
        expect((err as AppError).code).toBe("bound_exceeded");
        expect((err as AppError).message).toContain("allow once (bound: sessionAllowChars)");
        admitted(t, "tool.approval.answered", "ana", {
          requestId: `r${i}`,
          decision: "allow",
          remember: "once",
        });
        break;
      }
    }
    expect(JSON.stringify(t.state.sessionAllows.s1).length).toBeLessThanOrEqual(TINY.sessionAllowChars);
    expect(t.state.sessionAllows.s1!.length).toBeGreaterThan(1);
  });
});

describe("a pod stored before the bounds", () => {
  it("keeps moving: a task already past a bound changes state, and only growth past it is refused", () => {
    // The state as an older server let it grow (no door then): replay has no bounds.
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "old", description: "d", metadata: { a: "x".repeat(5000) } });
    t.add("task.updated", "impl", { taskId: "old", metadata: { b: "x".repeat(5000) } });
    const before = t.state;
    const at = (input: object) =>
      ({
        ...ZEventInput.parse(input),
        seq: before.seq + 1,
        receivedAt: "2026-11-23T00:00:00.000Z",
      }) as AppliedEvent;
    const start = at({ type: "task.updated", actor: "impl", body: { taskId: "old", status: "in_progress" } });
    expect(() => admitEvent(before, applyEvent(before, start), start, POD_BOUNDS)).not.toThrow();
    const grow = at({ type: "task.updated", actor: "impl", body: { taskId: "old", metadata: { c: "x" } } });
    expect(() => admitEvent(before, applyEvent(before, grow), grow, POD_BOUNDS)).toThrow(
      /bound: taskMetadataBytes/,
    );
    const more = at({ type: "task.added", actor: "impl", body: { taskId: "new", description: "d" } });
    expect(() => admitEvent(before, applyEvent(before, more), more, { ...POD_BOUNDS, tasks: 0 })).toThrow(
      /bound: tasks/,
    );
  });
});
