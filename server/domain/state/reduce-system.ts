// The server's own events, appended only as SYSTEM_ACTOR: a deadline's outcome,
// an agent gone stale, a notice for the pod's admins (and an admin dismissing it).
import { SYSTEM_ACTOR } from "../events/event-schemas";
import type { AppliedEvent, PodState } from "./pod-state";
import { at, conflictRule, invalidRule, type R, type Reducers, with_, without } from "./rules";
import { POD_BOUNDS } from "../pod-bounds";
import { deadlineOutcome } from "./deadlines";
import { cadenceMinutes, staleItemId, staleReference } from "./cadence";
import { decideJob, decideTask } from "./reduce-decisions";
import { answerApproval } from "./reduce-tool-gates";

function requireSystem(e: AppliedEvent) {
  if (e.actor !== SYSTEM_ACTOR)
    throw conflictRule(
      "system_only",
      `${e.type} is appended by the server itself (${SYSTEM_ACTOR}), never by ${e.actor}`,
    );
}

/**
 * Applied through the same state changes as a person's answer or decision, by podwatch; refused
 * unless the item is open, has that deadline, and it has passed. The outcome is the deadline's,
 * or "reminded" (the item stays, marked passed) when its default would break a rule now.
 */
const deadlinePassed: R<"deadline.passed"> = (s, e) => {
  requireSystem(e);
  const { itemId, subject, outcome, answer } = e.body;
  const item = Object.hasOwn(s.inbox, itemId) ? s.inbox[itemId]! : undefined;
  if (!item) throw conflictRule("not_open", `inbox item ${itemId} is not open (answered, decided or gone)`);
  if (item.subject.kind !== subject.kind || item.subject.id !== subject.id)
    throw invalidRule(
      "subject_mismatch",
      `inbox item ${itemId} is about ${item.subject.kind} ${item.subject.id}`,
    );
  const expected = deadlineOutcome(item);
  if (!expected) throw conflictRule("no_deadline", `inbox item ${itemId} has no deadline left to pass`);
  if (Date.parse(e.receivedAt) < Date.parse(item.due!.at))
    throw conflictRule("deadline_not_reached", `the deadline of ${itemId} is ${item.due!.at}`);
  // "reminded" is also what the server appends when the default outcome breaks a rule now (a failing gate).
  const fallback = outcome === "reminded" && answer === undefined;
  if (!fallback && (expected.outcome !== outcome || (expected.answer ?? null) !== (answer ?? null))) {
    throw conflictRule(
      "outcome_mismatch",
      `the deadline of ${itemId} says ${expected.outcome}${expected.answer ? ` "${expected.answer}"` : ""}`,
    );
  }
  if (outcome === "reminded")
    return { ...s, inbox: with_(s.inbox, itemId, { ...item, due: { ...item.due!, passed: true } }) };
  if (subject.kind === "tool") {
    return answerApproval(s, e, subject.id, {
      ...at(e),
      decision: answer === "allow" ? "allow" : "deny",
      by: e.actor,
      reason: `No answer by the deadline (${item.due!.at})`,
      remember: "once",
      byDeadline: true,
    });
  }
  if (subject.kind === "escalation") {
    const esc = s.escalations[subject.id]!;
    return {
      ...s,
      escalations: with_(s.escalations, esc.escalationId, {
        ...esc,
        answer: { ...at(e), answer: answer!, by: e.actor },
      }),
      inbox: without(s.inbox, itemId),
    };
  }
  const decided =
    subject.kind === "task"
      ? decideTask(s, subject.id, outcome === "approved" ? "approve" : "reject", e.seq)
      : settleJob(
          decideJob(s, subject.id, outcome === "accepted" ? "accept" : "reject"),
          subject.id,
          outcome === "accepted" ? "accept" : "reject",
        );
  const verdict = outcome === "approved" ? "approve" : outcome === "accepted" ? "accept" : "reject";
  const record = {
    ...at(e),
    subject,
    verdict,
    by: e.actor,
    tieBreaker: "timebox",
    rationale: `The deadline (${item.due!.at}) passed without an answer`,
    evidenceIds: [],
  };
  return { ...decided, decisions: [...decided.decisions, record].slice(-POD_BOUNDS.decisions) };
};

/** A person accepting a delivery also settles its escrow (one request); a deadline does the same in one event. */
function settleJob(s: PodState, jobId: string, verdict: "accept" | "reject"): PodState {
  const job = s.jobs[jobId]!;
  return {
    ...s,
    jobs: with_(s.jobs, jobId, {
      ...job,
      status: "settled",
      escrow: verdict === "accept" ? "released" : "refunded",
    }),
  };
}

/** One staleness episode: refused unless the agent is watched, not stale already, and `since` is still its reference (no checkpoint since). */
const agentStale: R<"agent.stale"> = (s, e) => {
  requireSystem(e);
  const { agentId, since } = e.body;
  const c = s.cadence[agentId];
  const ref = c ? staleReference(c) : null;
  if (!c || !ref)
    throw conflictRule(
      "not_watched",
      `${agentId} is not expected to checkpoint now (not the active agent or implementing a task in an active pod)`,
    );
  if (c.stale) throw conflictRule("already_stale", `${agentId} has been stale since seq ${c.stale.seq}`);
  if (Date.parse(ref) !== Date.parse(since))
    throw conflictRule("stale_episode_mismatch", `${agentId}'s cadence counts from ${ref}, not ${since}`);
  const name = s.members[agentId]?.displayName ?? agentId;
  const id = staleItemId(agentId);
  const item = {
    ...at(e),
    id,
    kind: "stale" as const,
    title: `${name} has not checkpointed for ${cadenceMinutes(s)} minutes`,
    subject: { kind: "agent", id: agentId },
  };
  return {
    ...s,
    cadence: with_(s.cadence, agentId, {
      ...c,
      stale: { ...at(e), since },
      staleEpisodes: c.staleEpisodes + 1,
    }),
    inbox: with_(s.inbox, id, item),
  };
};

const noticeItemId = (noticeId: string) => `notice:${noticeId}`;

const noticePosted: R<"notice.posted"> = (s, e) => {
  requireSystem(e);
  const id = noticeItemId(e.body.noticeId);
  if (s.inbox[id]) throw conflictRule("notice_open", `notice ${e.body.noticeId} is still open`);
  const item = {
    ...at(e),
    id,
    kind: "notice" as const,
    title: e.body.title,
    subject: { kind: "notice", id: e.body.noticeId },
    audience: e.body.audience,
    ...(e.body.text ? { text: e.body.text } : {}),
  };
  return { ...s, inbox: with_(s.inbox, id, item) };
};

/** Notices are for the pod's admins, so an admin dismisses them. */
const noticeDismissed: R<"notice.dismissed"> = (s, e) => {
  const m = Object.hasOwn(s.members, e.actor) ? s.members[e.actor]! : undefined;
  // A non-member can only be admin automation (the access layer lets only the admin token speak as one).
  if (m && !(m.kind === "human" && m.access === "admin"))
    throw conflictRule("admin_only", `notices are dismissed by the pod's admins; ${e.actor} is not one`);
  const id = noticeItemId(e.body.noticeId);
  if (!s.inbox[id]) throw invalidRule("unknown_notice", `notice ${e.body.noticeId} is not open in this pod`);
  return { ...s, inbox: without(s.inbox, id) };
};

export const systemReducers = {
  "deadline.passed": deadlinePassed,
  "agent.stale": agentStale,
  "notice.posted": noticePosted,
  "notice.dismissed": noticeDismissed,
} satisfies Partial<Reducers>;
