// Agent sessions: what Claude Code's hooks and OpenTelemetry spans report. These are
// observations, so they are never refused for arriving out of order (hooks installed mid-session,
// a spool replayed late): a session is opened by whatever of it arrives first.
import type { AppliedEvent, AgentSession, PodState, Usage } from "./pod-state";
import { withFields } from "./pod-state";
import { at, conflictRule, type R, type Reducers, with_, without } from "./rules";

/** How many sessions a pod's state keeps per agent (the tape keeps them all): one agent's many sessions never push out another's. */
export const MAX_SESSIONS = 20;
/** How many models a pod's usage keeps per agent. */
const MAX_MODELS = 50;

/** Sessions are an agent's voice: a person (signed in) does not report tool calls. */
function requireAgentVoice(s: PodState, e: AppliedEvent) {
  const m = Object.hasOwn(s.members, e.actor) ? s.members[e.actor]! : undefined;
  if (m?.kind === "human")
    throw conflictRule("agents_only", `${e.type} is reported by an agent; ${e.actor} is a person`);
}

function sessionOf(s: PodState, e: AppliedEvent): AgentSession | null {
  const id = e.sessionId;
  if (!id) return null;
  const known = Object.hasOwn(s.sessions, id) ? s.sessions[id]! : undefined;
  // A session is its agent's: another member cannot move its folder, end it or count in it.
  if (known && known.agentId !== e.actor)
    throw conflictRule("session_not_yours", `session ${id} belongs to ${known.agentId}`);
  if (known) return known;
  return {
    ...at(e),
    sessionId: id,
    agentId: e.actor,
    via: "unknown",
    model: null,
    cwd: null,
    ended: null,
    prompts: 0,
    toolCalls: 0,
    failedToolCalls: 0,
    compactions: 0,
    subagents: 0,
    last: at(e),
  };
}

/** Stores the session (touched now); past MAX_SESSIONS of its agent, that agent's least recently active leaves, with its session allows. */
function put(s: PodState, e: AppliedEvent, session: AgentSession | null): PodState {
  if (!session) return s;
  let sessions = with_(s.sessions, session.sessionId, { ...session, last: at(e) });
  let sessionAllows = s.sessionAllows;
  // Only a new session adds to its agent's count: a touch of a known one does not walk them all.
  if (Object.hasOwn(s.sessions, session.sessionId)) return withFields(s, { sessions });
  const ids = Object.keys(sessions).filter((id) => sessions[id]!.agentId === session.agentId);
  if (ids.length > MAX_SESSIONS) {
    // A new subagent never pushes out the session that runs it (a parent waiting on its subagents is the least active).
    const oldest = ids
      .filter((id) => id !== session.parentSessionId)
      .reduce((a, b) => (sessions[a]!.last.seq <= sessions[b]!.last.seq ? a : b));
    sessions = without(sessions, oldest);
    sessionAllows = without(sessionAllows, oldest);
  }
  return withFields(s, { sessions, sessionAllows });
}

/** A reducer that only touches the event's session (opening it if need be). */
const touch =
  <T extends AppliedEvent["type"]>(change: (x: AgentSession, e: Parameters<R<T>>[1]) => AgentSession): R<T> =>
  (s, e) => {
    requireAgentVoice(s, e);
    const session = sessionOf(s, e);
    return put(s, e, session && change(session, e));
  };

const sessionStarted: R<"session.started"> = (s, e) => {
  requireAgentVoice(s, e);
  const session = sessionOf(s, e);
  const b = e.body;
  return put(
    s,
    e,
    session && {
      ...session,
      via: b.via,
      model: b.model ?? session.model,
      cwd: b.cwd ?? session.cwd,
      ended: null,
      ...(b.parentSessionId ? { parentSessionId: b.parentSessionId } : {}),
      ...(b.agentType ? { agentType: b.agentType } : {}),
    },
  );
};

const promptSubmitted: R<"prompt.submitted"> = (s, e) => {
  if (e.body.text !== undefined && !s.recordPrompts)
    throw conflictRule("prompt_text_off", "this pod keeps prompt text off the tape: send only chars");
  return touch<"prompt.submitted">((x) => ({ ...x, prompts: x.prompts + 1 }))(s, e);
};

const toolCall = touch<"tool.call">((x, e) =>
  e.body.phase === "started"
    ? { ...x, toolCalls: x.toolCalls + 1 }
    : e.body.phase === "failed"
      ? { ...x, failedToolCalls: x.failedToolCalls + 1 }
      : x,
);

const usageReported: R<"usage.reported"> = (s, e) => {
  requireAgentVoice(s, e);
  const b = e.body;
  // Own keys only: a model named like a built-in property ("constructor") must not read Object's.
  const mine = Object.hasOwn(s.usage, e.actor) ? s.usage[e.actor]! : {};
  const known = Object.hasOwn(mine, b.model) ? mine[b.model] : undefined;
  const before: Usage = known ?? {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    reports: 0,
  };
  if (!known && Object.keys(mine).length >= MAX_MODELS)
    throw conflictRule("too_many_models", `usage is kept for at most ${MAX_MODELS} models per agent`);
  const after: Usage = {
    inputTokens: before.inputTokens + b.inputTokens,
    outputTokens: before.outputTokens + b.outputTokens,
    cacheReadTokens: before.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: before.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: before.costUsd + (b.costUsd ?? 0),
    reports: before.reports + 1,
    unpriced: (before.unpriced ?? 0) + (b.costUsd === undefined ? 1 : 0),
  };
  const session = sessionOf(s, e);
  return put(
    withFields(s, { usage: with_(s.usage, e.actor, with_(mine, b.model, after)) }),
    e,
    session && { ...session, model: session.model ?? b.model },
  );
};

export const sessionReducers = {
  "session.started": sessionStarted,
  "session.ended": touch<"session.ended">((x, e) => ({
    ...x,
    ended: { ...at(e), reason: e.body.reason ?? null },
  })),
  "prompt.submitted": promptSubmitted,
  "tool.call": toolCall,
  "agent.notified": touch<"agent.notified">((x) => x),
  subagent: touch<"subagent">((x, e) =>
    e.body.phase === "started" ? { ...x, subagents: x.subagents + 1 } : x,
  ),
  "session.compacted": touch<"session.compacted">((x) => ({ ...x, compactions: x.compactions + 1 })),
  "usage.reported": usageReported,
} satisfies Partial<Reducers>;
