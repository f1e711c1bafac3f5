// Meters: what budgets count that the rest of the state does not keep whole. Run
// after every event (apply-event.ts) with the state before and after it, so they follow any
// reducer's outcome (a pause by budget, a session evicted) without a reducer knowing of them.
import type { AgentMeter, AppliedEvent, Budget, PodState } from "./pod-state";
import { withFields } from "./pod-state";
import { with_ } from "./rules";

const freshMeter = (): AgentMeter => ({
  toolCalls: 0,
  failedToolCalls: 0,
  sessionMs: 0,
  lastSessionAt: null,
});

/** The longest gap between two of an agent's session events that counts whole: beyond it the agent was idle, and only this much counts. */
export const IDLE_GAP_MS = 15 * 60_000;

/** An agent's wall time grows by the gap since its previous session event (at most IDLE_GAP_MS); a session's end stops the clock. */
function wallStep(m: AgentMeter, e: AppliedEvent): Pick<AgentMeter, "sessionMs" | "lastSessionAt"> {
  const gap =
    m.lastSessionAt === null
      ? 0
      : Math.min(IDLE_GAP_MS, Math.max(0, Date.parse(e.receivedAt) - Date.parse(m.lastSessionAt)));
  return { sessionMs: m.sessionMs + gap, lastSessionAt: e.type === "session.ended" ? null : e.receivedAt };
}

export function trackMeters(before: PodState, after: PodState, e: AppliedEvent): PodState {
  let meters = after.meters;
  const wasActive = before.status === "active";
  const isActive = after.status === "active";
  if (!wasActive && isActive) meters = { ...meters, activeSince: e.receivedAt };
  if (wasActive && !isActive && meters.activeSince) {
    meters = {
      ...meters,
      activeMs: meters.activeMs + Math.max(0, Date.parse(e.receivedAt) - Date.parse(meters.activeSince)),
      activeSince: null,
    };
  }
  const session =
    e.sessionId && Object.hasOwn(after.sessions, e.sessionId) ? after.sessions[e.sessionId]! : null;
  const agentId = session?.agentId ?? (e.type === "tool.call" ? e.actor : null);
  if (agentId) {
    let m = Object.hasOwn(meters.agents, agentId) ? meters.agents[agentId]! : freshMeter();
    // Wall time is the agent's, not a session's: a fresh session id per event (or more sessions
    // than the state keeps) must not reset it. Only events that touch their session count (a
    // hook's checkpoint carries the session id but is not a session event).
    if (session && session.last.seq === e.seq) m = { ...m, ...wallStep(m, e) };
    if (e.type === "tool.call" && e.body.phase === "started" && e.body.gate?.decision !== "deny")
      m = { ...m, toolCalls: m.toolCalls + 1 };
    if (e.type === "tool.call" && e.body.phase === "failed")
      m = { ...m, failedToolCalls: m.failedToolCalls + 1 };
    meters = { ...meters, agents: with_(meters.agents, agentId, m) };
  }
  return meters === after.meters ? after : withFields(after, { meters });
}

/** The pod's active time up to `nowMs` (the current stretch included). */
export function activeMsAt(s: PodState, nowMs: number): number {
  const m = s.meters;
  return m.activeMs + (m.activeSince ? Math.max(0, nowMs - Date.parse(m.activeSince)) : 0);
}

/**
 * How much of a budget is used at `nowMs`: tokens are input plus output (cache reads and writes
 * are priced apart, so they count in cost_usd, not here); wall minutes are the pod's active time,
 * or an agent's session time (wallStep).
 */
/** The models a cost budget cannot count: their usage came without a cost (no price list knows them). */
export function uncountedModels(s: PodState, b: Pick<Budget, "agentId" | "metric">): string[] {
  if (b.metric !== "cost_usd") return [];
  const agents = b.agentId === null ? Object.keys(s.usage) : [b.agentId];
  const models = agents.flatMap((id) =>
    Object.entries(Object.hasOwn(s.usage, id) ? s.usage[id]! : {})
      .filter(([, u]) => (u.unpriced ?? 0) > 0)
      .map(([model]) => model),
  );
  return [...new Set(models)].sort();
}

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
