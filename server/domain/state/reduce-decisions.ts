// Decisions (docs/protocol/roles.md#decision-authority), plan gates by the contract guardian
// and the cost controller (docs/protocol/roles.md#plan-gates) and human escalations.
import type { EventOf } from "../events/event-schemas";
import type { AppliedEvent, PodState } from "./pod-state";
import {
  at,
  conflictRule,
  invalidRule,
  isApprover,
  type R,
  type Reducers,
  requireDecider,
  requireJob,
  requireEvidence,
  requireTask,
  with_,
  without,
} from "./rules";
import { POD_BOUNDS } from "../pod-bounds";
import { failingGates, linkEvidence } from "./reduce-evidence";
import { dueFrom } from "./deadlines";

type DecisionEvent = EventOf<"decision"> & AppliedEvent;
type Verdict = DecisionEvent["body"]["verdict"];

const VERDICTS: Record<string, string[]> = {
  task: ["approve", "reject"],
  job: ["accept", "reject"],
  plan: ["approve", "block"],
  milestone: ["approve", "reject", "accept", "block"],
  run: ["approve", "reject"],
};

/** A task in review approved (done) or rejected; also a deadline's outcome (reduce-system.ts). */
export function decideTask(s: PodState, taskId: string, verdict: Verdict, seq: number): PodState {
  const task = requireTask(s, taskId);
  if (task.status !== "in_review")
    throw conflictRule(
      "not_in_review",
      `task ${task.taskId} is ${task.status}; decisions are taken on work in review`,
    );
  if (verdict === "approve") {
    const failing = failingGates(s, task.taskId);
    if (failing.length)
      throw conflictRule(
        "failing_gate",
        `task ${task.taskId} cannot be approved while ${failing.join("; ")}`,
      );
  }
  const status = verdict === "approve" ? "done" : "rejected";
  return {
    ...s,
    tasks: with_(s.tasks, task.taskId, { ...task, status, updatedSeq: seq }),
    inbox: without(s.inbox, `decision:task:${task.taskId}`),
  };
}

/** A delivered job accepted or rejected; also a deadline's outcome. */
export function decideJob(s: PodState, jobId: string, verdict: Verdict): PodState {
  const job = requireJob(s, jobId);
  if (job.status !== "delivered")
    throw conflictRule(
      "job_not_delivered",
      `job ${job.jobId} is ${job.status}; accept or reject it once delivered`,
    );
  const status = verdict === "accept" ? ("accepted" as const) : ("rejected" as const);
  return {
    ...s,
    jobs: with_(s.jobs, job.jobId, { ...job, status }),
    inbox: without(s.inbox, `job:${job.jobId}`),
  };
}

function decidePlan(s: PodState, e: DecisionEvent): PodState {
  const key = `plan:${e.body.subject.id}`;
  if (e.body.verdict === "approve") {
    const planBlocks = Object.fromEntries(
      Object.entries(s.planBlocks).filter(([k]) => !k.startsWith(`${e.body.subject.id}:`)),
    );
    return { ...s, planBlocks, inbox: without(s.inbox, key) };
  }
  return {
    ...s,
    inbox: with_(s.inbox, key, {
      ...at(e),
      id: key,
      kind: "plan_blocked" as const,
      title: `Plan blocked by ${e.actor}: ${e.body.rationale}`,
      subject: { kind: "plan", id: e.body.subject.id },
    }),
  };
}

const decision: R<"decision"> = (s, e) => {
  requireDecider(s, e.actor, "decide");
  const { subject, verdict } = e.body;
  if (!VERDICTS[subject.kind]!.includes(verdict))
    throw invalidRule(
      "verdict_not_applicable",
      `a ${subject.kind} takes ${VERDICTS[subject.kind]!.join(" or ")}, not ${verdict}`,
    );
  requireEvidence(s, e.body.evidenceIds);
  let out = s;
  if (subject.kind === "task") out = decideTask(s, subject.id, verdict, e.seq);
  else if (subject.kind === "job") out = decideJob(s, subject.id, verdict);
  else if (subject.kind === "plan") out = decidePlan(s, e);
  else if (subject.kind === "run" && !s.runs[subject.id])
    throw invalidRule("unknown_run", `run ${subject.id} does not exist in this pod`);
  const record = {
    ...at(e),
    subject,
    verdict,
    by: e.actor,
    tieBreaker: e.body.tieBreaker ?? null,
    rationale: e.body.rationale,
    evidenceIds: e.body.evidenceIds,
  };
  return linkEvidence(
    { ...out, decisions: [...out.decisions, record].slice(-POD_BOUNDS.decisions) },
    e.body.evidenceIds,
    "decisions",
    e.seq,
  );
};

/** docs/protocol/roles.md#plan-gates: the contract guardian and the cost controller review the plan draft and may BLOCK it; they decide nothing else. */
const planReview: R<"plan.review"> = (s, e) => {
  const role = e.role;
  if (role !== "contract_guardian" && role !== "cost_controller")
    throw invalidRule("role_required", "plan.review is emitted as contract_guardian or cost_controller");
  const key = `${e.body.planId}:${role}`;
  const inboxKey = `plan:${e.body.planId}`;
  if (e.body.verdict === "APPROVE") {
    const planBlocks = without(s.planBlocks, key);
    const stillBlocked = Object.keys(planBlocks).some((k) => k.startsWith(`${e.body.planId}:`));
    return { ...s, planBlocks, inbox: stillBlocked ? s.inbox : without(s.inbox, inboxKey) };
  }
  return {
    ...s,
    planBlocks: with_(s.planBlocks, key, { ...at(e), by: e.actor, role, rationale: e.body.rationale }),
    inbox: with_(s.inbox, inboxKey, {
      ...at(e),
      id: inboxKey,
      kind: "plan_blocked" as const,
      title: `Plan blocked by ${role.replace("_", " ")}: ${e.body.rationale || "no rationale given"}`,
      subject: { kind: "plan", id: e.body.planId },
    }),
  };
};

const escalation: R<"escalation"> = (s, e) => {
  const id = e.body.escalationId ?? `esc_${e.seq}`;
  if (s.escalations[id]) throw conflictRule("escalation_exists", `escalation ${id} already exists`);
  const taskId = e.body.taskId ?? e.taskId ?? null;
  if (taskId) requireTask(s, taskId);
  requireEvidence(s, e.body.evidenceIds);
  const esc = {
    ...at(e),
    escalationId: id,
    kind: e.body.kind,
    question: e.body.question,
    options: e.body.options ?? [],
    taskId,
    evidenceIds: e.body.evidenceIds,
    askedBy: e.actor,
    answer: null,
  };
  const due = dueFrom(e.body.deadline, e.receivedAt);
  const item = {
    ...at(e),
    id: `escalation:${id}`,
    kind: "escalation" as const,
    title: e.body.question,
    subject: { kind: "escalation", id },
    ...(esc.options.length ? { options: esc.options } : {}),
    ...(taskId ? { taskId } : {}),
    ...(due ? { due } : {}),
  };
  return linkEvidence(
    { ...s, escalations: with_(s.escalations, id, esc), inbox: with_(s.inbox, item.id, item) },
    e.body.evidenceIds,
    "escalations",
    id,
  );
};

/**
 * Why this member may not answer the pod's escalations, or null when they may. A site admin who is
 * no member passes the door's guard and is refused here; the reads show it instead of Answer.
 */
export const escalationAnswerRefusal = (s: PodState, memberId: string): string | null =>
  isApprover(s, memberId) ? null : "escalations are answered by a human approver of this pod";

/** docs/protocol/decisions-and-escalations.md#escalations: escalations exist to reach a human, so only a human answers — once. */
const escalationAnswered: R<"escalation.answered"> = (s, e) => {
  const esc = s.escalations[e.body.escalationId];
  if (!esc)
    throw invalidRule("unknown_escalation", `escalation ${e.body.escalationId} does not exist in this pod`);
  if (esc.answer)
    throw conflictRule(
      "already_answered",
      `escalation ${esc.escalationId} was answered at seq ${esc.answer.seq}`,
    );
  const refusal = escalationAnswerRefusal(s, e.actor);
  if (refusal) throw conflictRule("humans_only", refusal);
  return {
    ...s,
    escalations: with_(s.escalations, esc.escalationId, {
      ...esc,
      answer: { ...at(e), answer: e.body.answer, by: e.actor },
    }),
    inbox: without(s.inbox, `escalation:${esc.escalationId}`),
  };
};

export const decisionReducers = {
  decision,
  "plan.review": planReview,
  escalation,
  "escalation.answered": escalationAnswered,
} satisfies Partial<Reducers>;
