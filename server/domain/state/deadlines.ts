// Deadlines: an escalation, a review request or a job delivery may say what happens
// when nobody answers in time. The reducer makes the deadline absolute (pure: `inMinutes`
// counts from the event's receivedAt); the scheduler (server/deadlines/) appends
// deadline.passed with the outcome computed here, and its reducer checks it against the same.
import { DEADLINE_MAX_MINUTES, type Deadline } from "../events/event-schemas";
import type { DeadlineOutcome } from "../vocabulary";
import type { Due, InboxItem, PodState } from "./pod-state";
import { conflictRule, holds, invalidRule, isApprover } from "./rules";

/** A deadline is at least this long after its event was received: a person gets a chance to answer first. */
export const DEADLINE_MIN_MS = 60_000;
const DEADLINE_MAX_MS = DEADLINE_MAX_MINUTES * 60_000;
let minMs = DEADLINE_MIN_MS;

/**
 * Test only (the deadlineMinMs knob, set once as the server starts): a shorter minimum, so a
 * test's deadline passes in seconds. The one setting the reducers read besides the event; a tape
 * replayed under the real minute may refuse such a deadline (its pod then keeps its stored state).
 */
export function setDeadlineMinimumForTests(ms: number) {
  minMs = Math.min(DEADLINE_MIN_MS, Math.max(100, ms));
}

/**
 * The event's deadline made absolute, or undefined without one. Refused when it is less than a
 * minute after `receivedAt` (a past `at` would have podwatch decide at once) or more than 30 days.
 */
export function dueFrom(d: Deadline | undefined, receivedAt: string): Due | undefined {
  if (!d) return undefined;
  const received = Date.parse(receivedAt);
  const at = d.at !== undefined ? Date.parse(d.at) : received + d.inMinutes! * 60_000;
  if (at - received < minMs)
    throw invalidRule(
      "deadline_too_soon",
      `a deadline is at least a minute after the event is received (${receivedAt}); ${new Date(at).toISOString()} is not`,
    );
  if (at - received > DEADLINE_MAX_MS)
    throw invalidRule(
      "deadline_too_far",
      `a deadline is at most 30 days after the event is received (${receivedAt}); ${new Date(at).toISOString()} is later`,
    );
  return {
    at: new Date(at).toISOString(),
    then: d.then,
    ...(d.answer !== undefined ? { answer: d.answer } : {}),
  };
}

/**
 * A review request's or a delivery's default outcome is applied as podwatch, past the decider: so
 * a favourable one (approve, accept) is set only by someone who may decide it themselves — the
 * chair or a human approver, the `decision` rule. Anyone else (the implementer, the contractor)
 * may ask for a reminder or a rejection.
 */
export function requireDefaultAuthority(
  s: PodState,
  actor: string,
  d: Deadline | undefined,
  subject: "task" | "job",
) {
  if (d?.then !== "answer" || (d.answer !== "approve" && d.answer !== "accept")) return;
  if (isApprover(s, actor) || holds(s, actor, "chair")) return;
  throw conflictRule(
    "default_needs_decider",
    `only the chair or a human approver may make "${d.answer}" the default of this ${subject === "task" ? "review request" : "delivery"}; ${actor} may ask for then: "remind" or "reject"`,
  );
}

/** What passing the item's deadline does; null when it has none (or it already passed as a reminder). */
export function deadlineOutcome(item: InboxItem): { outcome: DeadlineOutcome; answer?: string } | null {
  const due = item.due;
  if (!due || due.passed) return null;
  if (due.then === "remind") return { outcome: "reminded" };
  const kind = item.subject.kind;
  if (due.then === "reject") return { outcome: "rejected" };
  if (kind === "escalation" || kind === "tool") return { outcome: "answered", answer: due.answer! };
  if (kind === "task") return { outcome: due.answer === "approve" ? "approved" : "rejected" };
  return { outcome: due.answer === "accept" ? "accepted" : "rejected" };
}

/** The pod's open items whose deadline has not passed yet (or is passing), soonest first. */
export function pendingDeadlines(s: PodState): { item: InboxItem; at: string }[] {
  if (s.status === "closed") return [];
  return Object.values(s.inbox)
    .filter((i) => i.due && !i.due.passed)
    .map((item) => ({ item, at: item.due!.at }))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
