// Random but plausible pod histories for the signals property tests: a team (a human approver,
// a chair, an implementer, two reviewers, all agents but the person) doing the whole loop —
// tasks, reviews, decisions, evidence, checkpoints, escalations, handoffs, jobs and agent
// sessions with usage and tool calls. `acceptHistory` keeps what the rules accept, as the write
// path would; with a clock, "tick" steps move time on and append what the server itself would
// (a deadline's outcome, a stale agent), so those paths are replayed too.
import fc from "fast-check";
import { AppError } from "../domain/errors";
import { ZEventInput, type TEvent } from "../domain/events/event-schemas";
import { applyEvent } from "../domain/state/apply-event";
import { stalenessDue } from "../domain/state/cadence";
import { deadlineOutcome, pendingDeadlines } from "../domain/state/deadlines";
import { emptyPodState, type AppliedEvent, type PodState } from "../domain/state/pod-state";

const HASH = "d".repeat(64);
const AGENTS = ["chair-1", "impl", "rev", "rev2"] as const;

/** The team joining and the scope agreed (by admin automation, a non-member). */
export const TEAM_SETUP: unknown[] = [
  {
    type: "member.joined",
    actor: "admin",
    body: { memberId: "ana", kind: "human", displayName: "Ana", access: "approver" },
  },
  ...AGENTS.map((memberId) => ({
    type: "member.joined",
    actor: "admin",
    body: { memberId, kind: "agent", displayName: memberId },
  })),
  { type: "role.assigned", actor: "admin", body: { memberId: "chair-1", role: "chair" } },
  { type: "role.assigned", actor: "admin", body: { memberId: "impl", role: "implementer" } },
  {
    type: "pod.scope_agreed",
    actor: "admin",
    body: { scope: "s", successCriteria: ["c"], cadenceMinutes: 5 },
  },
  { type: "pod.started", actor: "admin", body: {} },
];

const worker = fc.constantFrom("impl", "rev", "rev2");
const session = fc.constantFrom("s1", "s2", "s3", "s4", "s5", "s6");
const decider = fc.constantFrom("ana", "chair-1");
const later = fc.constantFrom(undefined, { inMinutes: 3, then: "reject" }, { inMinutes: 3, then: "remind" });

/** A step: an event input, or ("tick") time moving on by some minutes. */
export type HistoryStep = { tick: number } | Record<string, unknown>;

/** `ids`: how many tasks, escalations and jobs a history may name (few: the steps meet the same ones often; more: a long history keeps going). */
const stepsOver = (ids: number): fc.Arbitrary<HistoryStep>[] => {
  const task = fc.integer({ min: 1, max: ids }).map((n) => `t${n}`);
  const esc = fc.integer({ min: 1, max: ids }).map((n) => `x${n}`);
  const job = fc.integer({ min: 1, max: ids }).map((n) => `j${n}`);
  return [
    fc.record({
      type: fc.constant("task.added"),
      actor: worker,
      body: fc.record({ taskId: task, description: fc.constant("d") }),
    }),
    fc.record({
      type: fc.constant("task.updated"),
      actor: worker,
      body: fc.record({
        taskId: task,
        status: fc.constantFrom("in_progress", "in_progress", "in_progress", "pending", "cancelled"),
      }),
    }),
    fc.record({
      type: fc.constant("task.review_requested"),
      actor: worker,
      body: fc.record({ taskId: task, deadline: later }, { requiredKeys: ["taskId"] }),
    }),
    fc.record({
      type: fc.constant("review"),
      actor: fc.constantFrom("rev", "rev2", "impl", "ana"),
      body: fc.record({
        taskId: task,
        verdict: fc.constantFrom("approve", "approve", "reject", "changes_requested"),
      }),
    }),
    fc.record({
      type: fc.constant("decision"),
      actor: decider,
      body: fc.record({
        subject: fc.record({ kind: fc.constant("task"), id: task }),
        verdict: fc.constantFrom("approve", "reject"),
        rationale: fc.constant("r"),
      }),
    }),
    fc.record({
      type: fc.constant("evidence.bundle"),
      actor: worker,
      body: fc.record({
        bundleId: fc.nat({ max: 10_000 }).map((n) => `e${n}`),
        commands: fc.constantFrom([{ command: "t", exit_code: 0 }], [{ command: "t", exit_code: 1 }]),
        artifacts: fc.constant([]),
        env: fc.constant({ commit: "c" }),
        manifestHash: fc.constant(HASH),
      }),
    }),
    fc.record({
      type: fc.constant("checkpoint"),
      actor: fc.constantFrom("impl", "rev", "rev2", "chair-1"),
      body: fc.constant({ completed: ["x"], next: [], blocked: [] }),
    }),
    fc.record({
      type: fc.constant("escalation"),
      actor: worker,
      body: fc.record(
        {
          escalationId: esc,
          kind: fc.constant("intent"),
          question: fc.constant("q?"),
          deadline: fc.constantFrom(
            undefined,
            { inMinutes: 3, then: "remind" },
            { inMinutes: 3, then: "answer", answer: "yes" },
          ),
        },
        { requiredKeys: ["escalationId", "kind", "question"] },
      ),
    }),
    fc.record({
      type: fc.constant("escalation.answered"),
      actor: fc.constant("ana"),
      body: fc.record({ escalationId: esc, answer: fc.constant("ok") }),
    }),
    fc.record({
      type: fc.constant("handoff"),
      actor: worker,
      body: fc.record({
        to: fc.constantFrom("impl", "rev", "rev2", "ana", "chair-1"),
        reason: fc.constant("r"),
      }),
    }),
    fc.record({
      type: fc.constant("job.posted"),
      actor: fc.constant("ana"),
      body: fc.record({
        jobId: job,
        scope: fc.constant("s"),
        acceptanceTests: fc.constant(["t"]),
        settlement: fc.constant({ amount: 5, currency: "EUR", terms: "t" }),
      }),
    }),
    fc.record({
      type: fc.constant("job.funded"),
      actor: fc.constant("ana"),
      body: fc.record({ jobId: job }),
    }),
    fc.record({
      type: fc.constant("job.delivered"),
      actor: worker,
      body: fc.record(
        { jobId: job, deadline: fc.constantFrom(undefined, { inMinutes: 3, then: "reject" }) },
        { requiredKeys: ["jobId"] },
      ),
    }),
    fc.record({
      type: fc.constant("decision"),
      actor: decider,
      body: fc.record({
        subject: fc.record({ kind: fc.constant("job"), id: job }),
        verdict: fc.constantFrom("accept", "reject"),
        rationale: fc.constant("r"),
      }),
    }),
    fc.record({
      type: fc.constant("job.settled"),
      actor: fc.constant("ana"),
      body: fc.record({ jobId: job, outcome: fc.constantFrom("released", "refunded") }),
    }),
    fc.record({
      type: fc.constant("session.started"),
      actor: worker,
      sessionId: session,
      body: fc.constant({ via: "claude-code" }),
    }),
    fc.record({
      type: fc.constant("usage.reported"),
      actor: worker,
      sessionId: session,
      body: fc.record(
        {
          model: fc.constantFrom("opus", "haiku"),
          inputTokens: fc.nat(5000),
          outputTokens: fc.nat(500),
          cacheReadTokens: fc.nat(100),
          costUsd: fc.constantFrom(undefined, 0.25, 0.5, 1.125),
        },
        { requiredKeys: ["model"] },
      ),
    }),
    fc.record({
      type: fc.constant("tool.call"),
      actor: worker,
      sessionId: session,
      body: fc.record({
        toolUseId: fc.nat(99).map((n) => `u${n}`),
        tool: fc.constantFrom("Bash", "Read", "Edit"),
        phase: fc.constantFrom("started", "started", "succeeded", "failed"),
      }),
    }),
    fc.record({
      type: fc.constantFrom("pod.paused", "pod.resumed"),
      actor: fc.constant("chair-1"),
      body: fc.constant({}),
    }),
    fc.record({ tick: fc.integer({ min: 1, max: 8 }) }),
  ];
};

/** The task loop's steps (the first five) come more often: a review needs several of them in a row. */
export const historyStep = (ids = 4) =>
  fc.oneof(...stepsOver(ids).map((arbitrary, i) => ({ arbitrary, weight: i < 5 ? 5 : 2 })));
export const historySteps = (maxLength: number, ids = 4) =>
  fc.array(historyStep(ids), { minLength: 1, maxLength });

/** What the server itself would append at `now`: every due deadline's outcome and every agent gone stale. */
function systemEvents(s: PodState, nowMs: number): unknown[] {
  const out: unknown[] = [];
  for (const { item, at } of pendingDeadlines(s)) {
    const outcome = deadlineOutcome(item);
    if (outcome && Date.parse(at) <= nowMs)
      out.push({
        type: "deadline.passed",
        actor: "podwatch",
        body: { itemId: item.id, subject: item.subject, ...outcome },
      });
  }
  for (const d of stalenessDue(s)) {
    if (d.dueAt <= nowMs)
      out.push({
        type: "agent.stale",
        actor: "podwatch",
        body: { agentId: d.agentId, since: d.since, cadenceMinutes: 5 },
      });
  }
  return out;
}

/** The append path's own check after the rules (admit-event.ts): throws to refuse the event. */
export type Admit = (before: PodState, after: PodState, e: AppliedEvent) => void;

/**
 * Applies the setup and the steps as the write path would, keeping what the rules accept. With
 * `clock`, each event is received a few seconds after the previous one and ticks move time on
 * (firing the server's own events); without, ticks are skipped (a real server stamps the time).
 * With `admit`, an event is kept only if it also passes it, as in plan-group.ts.
 */
export function acceptHistory(
  from: PodState,
  inputs: HistoryStep[],
  clock = true,
  admit?: Admit,
): { events: AppliedEvent[]; state: PodState } {
  let state = from;
  let now = Date.parse("2026-11-22T10:00:00.000Z");
  const events: AppliedEvent[] = [];
  const offer = (input: unknown) => {
    const e = {
      ...ZEventInput.parse(input),
      seq: state.seq + 1,
      receivedAt: new Date(now).toISOString(),
    } as AppliedEvent;
    try {
      const after = applyEvent(state, e);
      admit?.(state, after, e);
      state = after;
      events.push(e);
    } catch (err) {
      if (!(err instanceof AppError) || ![409, 422].includes(err.status)) throw err;
    }
  };
  for (const step of inputs) {
    if ("tick" in step) {
      if (!clock) continue;
      now += (step.tick as number) * 60_000;
      for (const e of systemEvents(state, now)) offer(e);
      continue;
    }
    now += 7_000;
    offer(step);
  }
  return { events, state };
}

/** The accepted events as the write path takes them (parsed inputs, no seq or receipt time). */
export const asInputs = (events: AppliedEvent[]): TEvent[] =>
  events.map(({ seq: _seq, receivedAt: _at, ...e }) => e as TEvent);

/**
 * Every state a pod goes through: the team's setup, then the steps the rules accept. Made one at a
 * time, as the caller takes them: the encoders' property tests write each with what they kept from
 * the states before it, so a reducer that changed a state it was given (after it was written)
 * would make a later text stale, and fail them.
 */
export function* everyState(steps: HistoryStep[]): Generator<PodState> {
  const { events } = acceptHistory(emptyPodState(), [...TEAM_SETUP, ...steps] as HistoryStep[]);
  let state = emptyPodState();
  for (const e of events) yield (state = applyEvent(state, e));
}
