// Steering a running agent session: a person's word (a message, an interrupt, a word to an idle
// session) waits in the session until the agent's next hook takes it; the hook route then writes
// its delivery in the agent's name. Pending steers are few and kept in the session itself, so a
// hook reads them in O(1); past the cap a new one is refused (409), never an old one dropped.
import type { AgentSession, InboxItem, PodState, Steer } from "./pod-state";
import { at, conflictRule, invalidRule, isApprover, type R, type Reducers, with_, without } from "./rules";

/** Steers one session may have waiting for its next hook. */
export const MAX_PENDING_STEERS = 5;
/** Delivered steers a session keeps beside the pending ones (a retried hook reads its own again). */
const KEEP_DELIVERED = 5;

function sessionNamed(s: PodState, sessionId: string): AgentSession {
  const session = Object.hasOwn(s.sessions, sessionId) ? s.sessions[sessionId]! : undefined;
  if (!session)
    throw invalidRule("unknown_session", `session ${sessionId} is not one of this pod's latest sessions`);
  return session;
}

/** The latest delivered ones, then every pending one, in the order they were said. */
function bounded(steers: Steer[]): Steer[] {
  const delivered = steers.filter((x) => x.delivered).slice(-KEEP_DELIVERED);
  return steers.filter((x) => !x.delivered || delivered.includes(x));
}

const put = (s: PodState, session: AgentSession, steers: Steer[]): PodState => ({
  ...s,
  sessions: with_(s.sessions, session.sessionId, { ...session, steers: bounded(steers) }),
});

/** The inbox item of a session held idle: a person's word to it, or its agent's next turn, closes it (session-turns.ts). */
export const idleItemId = (sessionId: string) => `idle:${sessionId}`;

const steered: R<"session.steered"> = (s, e) => {
  // A person who may answer and decide, or admin automation (a non-member: only the admin token speaks as one).
  if (Object.hasOwn(s.members, e.actor) && !isApprover(s, e.actor))
    throw conflictRule(
      "approvers_only",
      `running sessions are steered by the pod's human approvers; ${e.actor} is not one`,
    );
  const b = e.body;
  const session = sessionNamed(s, b.sessionId);
  if (session.ended)
    throw conflictRule("session_ended", `session ${b.sessionId} has ended: no hook of it will run again`);
  const steers = session.steers ?? [];
  if (steers.some((x) => x.steerId === b.steerId))
    throw conflictRule("steer_exists", `steer ${b.steerId} was already sent to session ${b.sessionId}`);
  const pending = steers.filter((x) => !x.delivered).length;
  if (pending >= MAX_PENDING_STEERS)
    throw conflictRule(
      "too_many_steers",
      `session ${b.sessionId} has ${pending} steers waiting for its next hook; wait until it takes them`,
    );
  const steer: Steer = {
    ...at(e),
    steerId: b.steerId,
    act: b.act,
    text: b.text,
    by: e.actor,
    delivered: null,
  };
  // A word to a session held idle answers its inbox item: the held Stop carries it on.
  return { ...put(s, session, [...steers, steer]), inbox: without(s.inbox, idleItemId(b.sessionId)) };
};

const delivered: R<"session.steer.delivered"> = (s, e) => {
  const b = e.body;
  const session = sessionNamed(s, b.sessionId);
  if (session.agentId !== e.actor)
    throw conflictRule("session_not_yours", `session ${b.sessionId} belongs to ${session.agentId}`);
  const steers = session.steers ?? [];
  const steer = steers.find((x) => x.steerId === b.steerId);
  if (!steer)
    throw invalidRule("unknown_steer", `steer ${b.steerId} is not waiting in session ${b.sessionId}`);
  if (steer.delivered)
    throw conflictRule(
      "already_delivered",
      `steer ${b.steerId} was delivered at seq ${steer.delivered.seq} (${steer.delivered.via})`,
    );
  const done: Steer = { ...steer, delivered: { ...at(e), via: b.via, hookId: b.hookId } };
  // An interrupt heard ends the turn: the agent stops without a report of its own (session-turns.ts).
  const turn = steer.act === "interrupt" ? { open: false, since: e.receivedAt, tool: null } : session.turn;
  // Heard: a Stop held for a Resume is answered (the agent carries on, or an interrupt ends it).
  const { idleHold: _answered, ...rest } = session;
  return put(
    s,
    { ...rest, turn },
    steers.map((x) => (x === steer ? done : x)),
  );
};

/** The agent's Stop waits for a person's Resume until `until`: the session shows it (Now, Sessions) and approvers are told. */
const idleHeld: R<"session.idle.held"> = (s, e) => {
  const b = e.body;
  const session = sessionNamed(s, b.sessionId);
  if (session.agentId !== e.actor)
    throw conflictRule("session_not_yours", `session ${b.sessionId} belongs to ${session.agentId}`);
  if (session.ended) throw conflictRule("session_ended", `session ${b.sessionId} has ended`);
  const agent = Object.hasOwn(s.members, e.actor) ? s.members[e.actor]!.displayName : e.actor;
  const item: InboxItem = {
    ...at(e),
    id: idleItemId(session.sessionId),
    kind: "idle",
    title: `${agent} is idle, waiting for you to resume`,
    subject: { kind: "session", id: session.sessionId },
  };
  return {
    ...s,
    sessions: with_(s.sessions, session.sessionId, { ...session, idleHold: { ...at(e), until: b.until } }),
    inbox: with_(s.inbox, item.id, item),
  };
};

export const steeringReducers = {
  "session.steered": steered,
  "session.steer.delivered": delivered,
  "session.idle.held": idleHeld,
} satisfies Partial<Reducers>;
