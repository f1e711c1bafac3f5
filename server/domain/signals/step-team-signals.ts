// Signals of how an agent works with the others: checkpoint cadence (the watchdog's counts),
// escalations and how they ended, handoffs, and contracting (jobs it delivered, docs/protocol/contracting.md).
import type { AppliedEvent, PodState } from "../state/pod-state";
import { without } from "../state/rules";
import { withKey } from "../state/shared-record";
import { dayOf, isAgentMember, msBetween, own, updateAgent, updateDay } from "./signal-kit";
import type { ContractSignals, PodSignals } from "./signal-types";

/** The change of each agent's cadence counters (onTime, late, staleEpisodes) from before the event to after it. */
function cadenceChange(sig: PodSignals, before: PodState, after: PodState, e: AppliedEvent): PodSignals {
  if (before.cadence === after.cadence) return sig;
  let out = sig;
  for (const [id, c] of Object.entries(after.cadence)) {
    const was = own(before.cadence, id);
    const onTime = c.onTime - (was?.onTime ?? 0);
    const late = c.late - (was?.late ?? 0);
    const stale = c.staleEpisodes - (was?.staleEpisodes ?? 0);
    if ((!onTime && !late && !stale) || !isAgentMember(after, id)) continue;
    out = updateAgent(out, id, (a) => {
      const next = {
        ...a,
        cadence: {
          onTime: a.cadence.onTime + onTime,
          late: a.cadence.late + late,
          staleEpisodes: a.cadence.staleEpisodes + stale,
        },
      };
      if (!onTime && !late) return next;
      return updateDay(next, dayOf(e.receivedAt), (d) => ({
        ...d,
        checkpoints: { onTime: d.checkpoints.onTime + onTime, late: d.checkpoints.late + late },
      }));
    });
  }
  return out;
}

function bumpContract(
  sig: PodSignals,
  after: PodState,
  agentId: string | undefined,
  add: Partial<ContractSignals>,
): PodSignals {
  if (!isAgentMember(after, agentId)) return sig;
  return updateAgent(sig, agentId, (a) => {
    const c = { ...a.contracting };
    for (const [k, n] of Object.entries(add) as [keyof ContractSignals, number][]) c[k] += n;
    return { ...a, contracting: c };
  });
}

function forgetDeliverer(sig: PodSignals, jobId: string): PodSignals {
  const deliverers = without(sig.tracking.deliverers, jobId);
  return deliverers === sig.tracking.deliverers ? sig : { ...sig, tracking: { ...sig.tracking, deliverers } };
}

function escalationEnded(
  sig: PodSignals,
  after: PodState,
  escalationId: string,
  how: "answered" | "expired",
): PodSignals {
  const esc = own(after.escalations, escalationId);
  if (!esc || !isAgentMember(after, esc.askedBy)) return sig;
  return updateAgent(sig, esc.askedBy, (a) => {
    const x = a.escalations;
    if (how === "expired") return { ...a, escalations: { ...x, expired: x.expired + 1 } };
    const took = msBetween(esc.at, esc.answer!.at);
    return {
      ...a,
      escalations: {
        ...x,
        answered: x.answered + 1,
        timeToAnswerMs: { sum: x.timeToAnswerMs.sum + took, count: x.timeToAnswerMs.count + 1 },
      },
    };
  });
}

export function stepTeamSignals(
  sig: PodSignals,
  before: PodState,
  after: PodState,
  e: AppliedEvent,
): PodSignals {
  const out = cadenceChange(sig, before, after, e);
  switch (e.type) {
    case "escalation":
      return isAgentMember(after, e.actor)
        ? updateAgent(out, e.actor, (a) => ({
            ...a,
            escalations: { ...a.escalations, raised: a.escalations.raised + 1 },
          }))
        : out;
    case "escalation.answered":
      return escalationEnded(out, after, e.body.escalationId, "answered");
    case "handoff": {
      let next = out;
      if (isAgentMember(after, e.actor))
        next = updateAgent(next, e.actor, (a) => ({
          ...a,
          handoffs: { ...a.handoffs, given: a.handoffs.given + 1 },
        }));
      if (isAgentMember(after, e.body.to))
        next = updateAgent(next, e.body.to, (a) => ({
          ...a,
          handoffs: { ...a.handoffs, received: a.handoffs.received + 1 },
        }));
      return next;
    }
    case "job.delivered": {
      const tracked = {
        ...out,
        tracking: { ...out.tracking, deliverers: withKey(out.tracking.deliverers, e.body.jobId, e.actor) },
      };
      return bumpContract(tracked, after, e.actor, { delivered: 1 });
    }
    case "decision": {
      if (e.body.subject.kind !== "job") return out;
      const rejected = e.body.verdict === "reject";
      return bumpContract(
        out,
        after,
        own(out.tracking.deliverers, e.body.subject.id),
        rejected ? { rejected: 1, disputes: 1 } : { accepted: 1 },
      );
    }
    case "job.settled": {
      const deliverer = own(out.tracking.deliverers, e.body.jobId);
      return forgetDeliverer(
        bumpContract(
          out,
          after,
          deliverer,
          e.body.outcome === "released" ? { released: 1 } : { refunded: 1 },
        ),
        e.body.jobId,
      );
    }
    case "deadline.passed": {
      const { subject, outcome } = e.body;
      if (outcome === "reminded") return out;
      if (subject.kind === "escalation") return escalationEnded(out, after, subject.id, "expired");
      if (subject.kind !== "job") return out;
      // A delivery's deadline decides and settles in one event (reduce-system.ts).
      const deliverer = own(out.tracking.deliverers, subject.id);
      const add =
        outcome === "accepted" ? { accepted: 1, released: 1 } : { rejected: 1, disputes: 1, refunded: 1 };
      return forgetDeliverer(bumpContract(out, after, deliverer, add), subject.id);
    }
    default:
      return out;
  }
}
