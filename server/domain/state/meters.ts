// Meters (issue 16): what budgets count that the rest of the state does not keep whole. Run
// after every event (apply-event.ts) with the state before and after it, so they follow any
// reducer's outcome (a pause by budget, a session evicted) without a reducer knowing of them.
import type { AgentMeter, AppliedEvent, Budget, PodState } from "./pod-state";
import { with_ } from "./rules";

const freshMeter = (): AgentMeter => ({ toolCalls: 0, failedToolCalls: 0, sessionMs: 0 });

export function trackMeters(before: PodState, after: PodState, e: AppliedEvent): PodState {
  let meters = after.meters;
  const wasActive = before.status === "active";
  const isActive = after.status === "active";
  if (!wasActive && isActive) meters = { ...meters, activeSince: e.receivedAt };
  if (wasActive && !isActive && meters.activeSince) {
    meters = { ...meters, activeMs: meters.activeMs + Math.max(0, Date.parse(e.receivedAt) - Date.parse(meters.activeSince)), activeSince: null };
  }
  const session = e.sessionId && Object.hasOwn(after.sessions, e.sessionId) ? after.sessions[e.sessionId]! : null;
  const agentId = session?.agentId ?? (e.type === "tool.call" ? e.actor : null);
  if (agentId) {
    let m = Object.hasOwn(meters.agents, agentId) ? meters.agents[agentId]! : freshMeter();
    // A session's wall time grows by how far this event moved its latest time (a session evicted
    // from the state and seen again starts afresh: its earlier time is already counted). Events
    // that carry the session but do not touch it (a hook's checkpoint, an approval request) add
    // nothing: counting from the untouched latest time would count that stretch twice.
    const prev = e.sessionId && Object.hasOwn(before.sessions, e.sessionId) ? before.sessions[e.sessionId]! : null;
    if (prev && session) m = { ...m, sessionMs: m.sessionMs + Math.max(0, Date.parse(session.last.at) - Date.parse(prev.last.at)) };
    if (e.type === "tool.call" && e.body.phase === "started") m = { ...m, toolCalls: m.toolCalls + 1 };
    if (e.type === "tool.call" && e.body.phase === "failed") m = { ...m, failedToolCalls: m.failedToolCalls + 1 };
    meters = { ...meters, agents: with_(meters.agents, agentId, m) };
  }
  return meters === after.meters ? after : { ...after, meters };
}

/** The pod's active time up to `nowMs` (the current stretch included). */
export function activeMsAt(s: PodState, nowMs: number): number {
  const m = s.meters;
  return m.activeMs + (m.activeSince ? Math.max(0, nowMs - Date.parse(m.activeSince)) : 0);
}

/**
 * How much of a budget is used at `nowMs`: tokens are input plus output (cache reads and writes
 * are priced apart, so they count in cost_usd, not here); wall minutes are the pod's active time,
 * or an agent's session time.
 */
export function budgetUse(s: PodState, b: Pick<Budget, "agentId" | "metric">, nowMs: number): number {
  const agents = b.agentId === null ? Object.keys({ ...s.usage, ...s.meters.agents }) : [b.agentId];
  const sum = (f: (id: string) => number) => agents.reduce((n, id) => n + f(id), 0);
  const usage = (id: string) => Object.values(Object.hasOwn(s.usage, id) ? s.usage[id]! : {});
  const meter = (id: string) => (Object.hasOwn(s.meters.agents, id) ? s.meters.agents[id]! : freshMeter());
  switch (b.metric) {
    case "tokens":
      return sum((id) => usage(id).reduce((n, u) => n + u.inputTokens + u.outputTokens, 0));
    case "cost_usd":
      return sum((id) => usage(id).reduce((n, u) => n + u.costUsd, 0));
    case "tool_calls":
      return sum((id) => meter(id).toolCalls);
    case "wall_minutes":
      return (b.agentId === null ? activeMsAt(s, nowMs) : meter(b.agentId).sessionMs) / 60_000;
  }
}
