// Deadlines (issue 14): an escalation, a review request or a job delivery may say what happens
// when nobody answers in time. The reducer makes the deadline absolute (pure: `inMinutes`
// counts from the event's receivedAt); the scheduler (server/deadlines/) appends
// deadline.passed with the outcome computed here, and its reducer checks it against the same.
import type { Deadline } from "../events/event-schemas";
import type { DeadlineOutcome } from "../../wire/vocabulary";
import type { Due, InboxItem, PodState } from "./pod-state";

export function dueFrom(d: Deadline | undefined, receivedAt: string): Due | undefined {
  if (!d) return undefined;
  const at = d.at !== undefined ? new Date(d.at).toISOString() : new Date(Date.parse(receivedAt) + d.inMinutes! * 60_000).toISOString();
  return { at, then: d.then, ...(d.answer !== undefined ? { answer: d.answer } : {}) };
}

/** What passing the item's deadline does; null when it has none (or it already passed as a reminder). */
export function deadlineOutcome(item: InboxItem): { outcome: DeadlineOutcome; answer?: string } | null {
  const due = item.due;
  if (!due || due.passed) return null;
  if (due.then === "remind") return { outcome: "reminded" };
  const kind = item.subject.kind;
  if (due.then === "reject") return { outcome: "rejected" };
  if (kind === "escalation") return { outcome: "answered", answer: due.answer! };
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
