// Who may append what, whatever the door: the write path (server/tape/append-events.ts) asks this
// before it queues an append, so a route, a server action, the hook route, OTLP or a background
// job cannot forget a rule. Each door says who is appending; the rules here decide the rest:
// - an agent token speaks only as its own member, on its own pod;
// - a person speaks only as themselves (their email is their member id);
// - neither forges podwatch's decisions about a tool call (./forged-gates.ts);
// - the admin token may name any actor and write any gate (automation, imports);
// - nobody but the server speaks with the server's voice or takes its name (./reserved-names.ts);
// - the server itself appends with a stated name; when it writes for an agent (the hook route
//   recording what it decided about the agent's call) it speaks as that member or as itself.
// What the pod's state allows is checked under the pod's lock, where the events are applied
// (../plan-group.ts): admitInState below, then the reducers' rules and ../state/admit-event.ts's bounds.
import { SYSTEM_ACTOR } from "../events/event-schemas";
import type { PodState } from "../state/pod-state";
import { refuseForgedGates } from "./forged-gates";
import { podAccess, refuseSystemVoice, requireAppend, type Identity, type Verdict } from "./policy";

/** The server itself, named (for messages and logs): the deadline scheduler, the webhook worker, the hook route. */
export type SystemIdentity = { kind: "system"; name: string; member?: { podId: string; memberId: string } };
/** Who appends: a request's identity (a member's token, a person, the admin token) or the server itself. */
export type AppendIdentity = Identity | SystemIdentity;

type Written = { type: string; actor: string; body?: unknown };

const allow: Verdict = { ok: true };
const mismatch = (message: string): Verdict => ({ ok: false, status: 403, code: "actor_mismatch", message });

export function admitAppend(as: AppendIdentity, podId: string, events: readonly Written[]): Verdict {
  if (as.kind === "system") return admitSystem(as, podId, events);
  const actors = events.map((e) => e.actor);
  const speaker = as.kind === "user" ? admitPerson(as.email, events) : requireAppend(as, podId, actors);
  if (!speaker.ok) return speaker;
  const voice = refuseSystemVoice(events);
  if (!voice.ok) return voice;
  return as.kind === "admin-token" ? allow : refuseForgedGates(events);
}

/** A person acts from the control room as themselves, never in another member's name. */
function admitPerson(email: string, events: readonly Written[]): Verdict {
  const other = events.find((e) => e.actor !== email);
  return other ? mismatch(`you act as ${email}, not ${other.actor}`) : allow;
}

function admitSystem(as: SystemIdentity, podId: string, events: readonly Written[]): Verdict {
  if (!as.member) return allow;
  const { memberId } = as.member;
  if (as.member.podId !== podId) {
    return {
      ok: false,
      status: 403,
      code: "forbidden",
      message: `${as.name} writes for ${memberId} of another pod`,
    };
  }
  const other = events.find((e) => e.actor !== memberId && e.actor !== SYSTEM_ACTOR);
  return other
    ? mismatch(`${as.name} writes for ${memberId} (or as ${SYSTEM_ACTOR}), not ${other.actor}`)
    : allow;
}

/**
 * What the pod's state, under its lock, says of the caller: a person appends only while they are
 * one of the pod's people (or a site admin), so access revoked after a door checked it refuses
 * the append instead of letting it in. A pod with no member yet takes its creator's first events.
 */
export function admitInState(as: AppendIdentity, podId: string, state: PodState): Verdict {
  if (as.kind !== "user" || podAccess(as, podId, state) !== "none") return allow;
  if (Object.keys(state.members).length === 0) return allow;
  return {
    ok: false,
    status: 403,
    code: "forbidden",
    message: `${as.email} is not one of this pod's people`,
  };
}

/** The actor a use-case's events carry when it speaks for `as` (a member by its id, the admin token by its label). */
export function speakerOf(as: AppendIdentity): string {
  if (as.kind === "user") return as.email;
  if (as.kind === "agent") return as.memberId;
  if (as.kind === "admin-token") return `admin:${as.label}`;
  if (as.kind === "system") return as.member?.memberId ?? SYSTEM_ACTOR;
  return "unknown"; // anonymous callers and share links are refused by admitAppend anyway
}
