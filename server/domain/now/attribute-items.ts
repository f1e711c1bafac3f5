// Which session an inbox item is for: a held tool call names its session; an escalation, a task's
// review and a stale agent's notice name only an agent, so they go to that agent's latest session
// still open (else its latest). Items that name no agent (a plan, a job, a budget) belong to no
// session: the pod's inbox shows them.
import type { AgentSession, InboxItem, PodState } from "../state/pod-state";

const own = <T>(r: Record<string, T>, k: string) => (Object.hasOwn(r, k) ? r[k] : undefined);

function agentOf(state: PodState, item: InboxItem): { agentId: string; sessionId: string | null } | null {
  const { kind, id } = item.subject;
  if (kind === "tool") {
    const a = own(state.toolApprovals, id);
    return a ? { agentId: a.agentId, sessionId: a.sessionId } : null;
  }
  if (kind === "escalation") {
    const e = own(state.escalations, id);
    return e ? { agentId: e.askedBy, sessionId: null } : null;
  }
  if (kind === "task") {
    const t = own(state.tasks, id);
    return t?.implementer ? { agentId: t.implementer, sessionId: null } : null;
  }
  if (kind === "agent") return { agentId: id, sessionId: null };
  return null;
}

const later = (a: AgentSession, b: AgentSession) => (a.last.seq >= b.last.seq ? a : b);

/** The agent's session its items go to: the latest not ended, else the latest. */
function mainSession(sessions: AgentSession[]): AgentSession | undefined {
  const open = sessions.filter((s) => !s.ended);
  return (open.length ? open : sessions).reduce<AgentSession | undefined>(
    (a, b) => (a ? later(a, b) : b),
    undefined,
  );
}

/** The items (of those given) per session id; each item goes to one session at most. */
export function itemsBySession<T extends InboxItem>(state: PodState, items: T[]): Map<string, T[]> {
  const byAgent = new Map<string, AgentSession[]>();
  for (const s of Object.values(state.sessions))
    byAgent.set(s.agentId, [...(byAgent.get(s.agentId) ?? []), s]);
  const out = new Map<string, T[]>();
  for (const item of items) {
    const who = agentOf(state, item);
    if (!who) continue;
    const named = who.sessionId ? own(state.sessions, who.sessionId) : undefined;
    const session = named?.agentId === who.agentId ? named : mainSession(byAgent.get(who.agentId) ?? []);
    if (session) out.set(session.sessionId, [...(out.get(session.sessionId) ?? []), item]);
  }
  return out;
}
