// Signals of the task loop (docs/protocol/plan-and-handoffs.md#the-review-loop), as implementer
// and as reviewer. A review round runs from a task.review_requested to the round's end: a review
// that is not an approval (the task goes back to changes_requested) or the decision. Within a
// round every review before the last is an approval, so "a later review contradicts an earlier
// one" can only be a reject / changes_requested after another reviewer's approve, and "the
// decision contradicts a review" only a rejection after approvals (a task is never approved in
// a round that a non-approving review ended: the decision needs the task in review).
import type { AppliedEvent, PodState } from "../state/pod-state";
import { without } from "../state/rules";
import { withKey } from "../state/shared-record";
import { dayOf, isAgentMember, msBetween, own, updateAgent, updateDay } from "./signal-kit";
import type { PodSignals, SignalsTracking } from "./signal-types";

const withTracking = (sig: PodSignals, change: Partial<SignalsTracking>): PodSignals => ({
  ...sig,
  tracking: { ...sig.tracking, ...change },
});

/** The task's round is over (decided or cancelled): nothing more to remember of it. */
const forgetTask = (sig: PodSignals, taskId: string) =>
  withTracking(sig, {
    reviewRequestedAt: without(sig.tracking.reviewRequestedAt, taskId),
    roundApprovals: without(sig.tracking.roundApprovals, taskId),
  });

/** Approvals of the round by reviewers other than `except`, credited to those reviewers as overturned. */
function overturnApprovals(
  sig: PodSignals,
  after: PodState,
  taskId: string,
  except: string | null,
): PodSignals {
  let out = sig;
  for (const [reviewer, n] of Object.entries(own(sig.tracking.roundApprovals, taskId) ?? {})) {
    if (reviewer !== except && isAgentMember(after, reviewer))
      out = updateAgent(out, reviewer, (a) => ({
        ...a,
        reviewer: { ...a.reviewer, overturned: a.reviewer.overturned + n },
      }));
  }
  return out;
}

function reviewed(
  sig: PodSignals,
  before: PodState,
  after: PodState,
  e: AppliedEvent & { type: "review" },
): PodSignals {
  const { taskId, verdict } = e.body;
  const requestedAt = own(sig.tracking.reviewRequestedAt, taskId);
  let out = sig;
  if (isAgentMember(after, e.actor)) {
    out = updateAgent(out, e.actor, (a) => {
      const r = a.reviewer;
      const timed = requestedAt
        ? {
            sum: r.timeToReviewMs.sum + msBetween(requestedAt, e.receivedAt),
            count: r.timeToReviewMs.count + 1,
          }
        : r.timeToReviewMs;
      const next = {
        ...a,
        reviewer: {
          ...r,
          reviews: r.reviews + 1,
          verdicts: { ...r.verdicts, [verdict]: r.verdicts[verdict] + 1 },
          timeToReviewMs: timed,
        },
      };
      return updateDay(next, dayOf(e.receivedAt), (d) => ({
        ...d,
        reviews: { ...d.reviews, [verdict]: d.reviews[verdict] + 1 },
      }));
    });
  }
  const implementer = before.tasks[taskId]?.implementer ?? null;
  if (verdict === "changes_requested" && isAgentMember(after, implementer)) {
    out = updateAgent(out, implementer, (a) => ({
      ...a,
      implementer: { ...a.implementer, changesRequested: a.implementer.changesRequested + 1 },
    }));
  }
  const approvals = own(out.tracking.roundApprovals, taskId) ?? {};
  if (verdict === "approve") {
    return withTracking(out, {
      roundApprovals: withKey(out.tracking.roundApprovals, taskId, {
        ...approvals,
        [e.actor]: (own(approvals, e.actor) ?? 0) + 1,
      }),
    });
  }
  // A reject or changes_requested ends the round, contradicting the other reviewers' approvals in it.
  out = overturnApprovals(out, after, taskId, e.actor);
  return withTracking(out, { roundApprovals: without(out.tracking.roundApprovals, taskId) });
}

/** A task in review decided (by a person, the chair or a deadline's default): its implementer's outcome, its round's reviews judged. */
function decided(
  sig: PodSignals,
  before: PodState,
  after: PodState,
  e: AppliedEvent,
  taskId: string,
): PodSignals {
  const was = before.tasks[taskId];
  const now = after.tasks[taskId];
  if (!was || !now || was.status !== "in_review" || (now.status !== "done" && now.status !== "rejected"))
    return sig;
  const approved = now.status === "done";
  const hadApprovals = Object.keys(own(sig.tracking.roundApprovals, taskId) ?? {}).length > 0;
  let out = sig;
  if (isAgentMember(after, was.implementer)) {
    out = updateAgent(out, was.implementer, (a) => {
      const i = a.implementer;
      const next = approved
        ? {
            ...i,
            tasksApproved: i.tasksApproved + 1,
            roundsToApproval: {
              sum: i.roundsToApproval.sum + now.reviewRounds,
              count: i.roundsToApproval.count + 1,
            },
          }
        : { ...i, tasksRejected: i.tasksRejected + 1, reversals: i.reversals + (hadApprovals ? 1 : 0) };
      return updateDay({ ...a, implementer: next }, dayOf(e.receivedAt), (d) => ({
        ...d,
        tasks: approved
          ? { ...d.tasks, approved: d.tasks.approved + 1 }
          : { ...d.tasks, rejected: d.tasks.rejected + 1 },
      }));
    });
  }
  if (!approved) out = overturnApprovals(out, after, taskId, null);
  return forgetTask(out, taskId);
}

export function stepTaskSignals(
  sig: PodSignals,
  before: PodState,
  after: PodState,
  e: AppliedEvent,
): PodSignals {
  switch (e.type) {
    case "task.review_requested":
      return withTracking(sig, {
        reviewRequestedAt: withKey(sig.tracking.reviewRequestedAt, e.body.taskId, e.receivedAt),
        roundApprovals: without(sig.tracking.roundApprovals, e.body.taskId),
      });
    case "review":
      return reviewed(sig, before, after, e);
    case "decision":
      return e.body.subject.kind === "task" ? decided(sig, before, after, e, e.body.subject.id) : sig;
    case "deadline.passed":
      return e.body.subject.kind === "task" ? decided(sig, before, after, e, e.body.subject.id) : sig;
    case "task.updated":
      return after.tasks[e.body.taskId]?.status === "cancelled" ? forgetTask(sig, e.body.taskId) : sig;
    case "evidence.bundle": {
      if (!isAgentMember(after, e.actor)) return sig;
      const passed = after.evidence[e.body.bundleId]!.passed;
      return updateAgent(sig, e.actor, (a) => ({
        ...a,
        implementer: {
          ...a.implementer,
          evidencePassed: {
            n: a.implementer.evidencePassed.n + (passed ? 1 : 0),
            of: a.implementer.evidencePassed.of + 1,
          },
        },
      }));
    }
    case "workcell.proof": {
      if (!isAgentMember(after, e.actor)) return sig;
      const failing = !after.workcells[e.body.proof.workcell_id]!.proof!.allPassed;
      return updateAgent(sig, e.actor, (a) => ({
        ...a,
        implementer: {
          ...a.implementer,
          proofsFailing: {
            n: a.implementer.proofsFailing.n + (failing ? 1 : 0),
            of: a.implementer.proofsFailing.of + 1,
          },
        },
      }));
    }
    default:
      return sig;
  }
}
