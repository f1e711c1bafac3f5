// A person's verdict on a subject, as the events that record it. A job's verdict also settles the
// job's escrow (accepting releases it, rejecting refunds it) in the same append, all or nothing:
// every door that lets a person decide (the inbox card, a notification's button) builds it here.
import type { EventOf } from "../events/event-schemas";

type DecisionBody = EventOf<"decision">["body"];
export type Decide = Pick<DecisionBody, "subject" | "verdict" | "rationale" | "tieBreaker">;

export function decideEvents(
  d: Decide,
  actor: string,
): [EventOf<"decision">] | [EventOf<"decision">, EventOf<"job.settled">] {
  const body = {
    subject: d.subject,
    verdict: d.verdict,
    rationale: d.rationale,
    evidenceIds: [],
    ...(d.tieBreaker ? { tieBreaker: d.tieBreaker } : {}),
  };
  const decision = { type: "decision" as const, actor, body };
  if (d.subject.kind !== "job") return [decision];
  const outcome = d.verdict === "accept" ? ("released" as const) : ("refunded" as const);
  return [decision, { type: "job.settled" as const, actor, body: { jobId: d.subject.id, outcome } }];
}
