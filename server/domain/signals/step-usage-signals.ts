// Usage signals (from the agent session events): tokens and cost per model, tool calls per tool,
// sessions and the latest runs, day by day; and the pod's cumulative cost for the burn-down.
import { SESSION_EVENT_TYPES, type EventType } from "../vocabulary";
import type { AppliedEvent, PodState } from "../state/pod-state";
import { addUsage, dayOf, emptyUsageTotals, isAgentMember, own, updateAgent, updateDay } from "./signal-kit";
import type { AgentSignals, CostPoint, PodSignals, RunSignals, UsageTotals } from "./signal-types";

/** Runs (sessions) kept per agent: the latest by lastAt (ties: by session id). */
export const MAX_RUNS = 50;
/** Tool names counted apart per agent; calls of any further tool count under OTHER_TOOL. */
export const MAX_TOOLS = 100;
export const OTHER_TOOL = "(other)";
/** Points of the pod's cost curve; past it every other point goes (the first and the last stay). */
export const MAX_COST_POINTS = 240;

const SESSION_EVENTS = new Set<EventType>(SESSION_EVENT_TYPES);

/** Every other point, the first and the last always kept: the same tape always thins to the same points. */
export function thinCostPoints(points: CostPoint[]): CostPoint[] {
  return points.filter((_, i) => i % 2 === 0 || i === points.length - 1);
}

function usageOf(e: AppliedEvent & { type: "usage.reported" }): UsageTotals {
  const b = e.body;
  return {
    inputTokens: b.inputTokens,
    outputTokens: b.outputTokens,
    cacheReadTokens: b.cacheReadTokens,
    cacheWriteTokens: b.cacheWriteTokens,
    costUsd: b.costUsd ?? 0,
  };
}

/**
 * `runs` with `run` under `sessionId`, in the spread's key order. Copied whole, then set:
 * `{ ...runs, [id]: run }` builds the copy key by key, and with MAX_RUNS runs it was the signals
 * fold's costliest line (twice per session event in a window: the pod's signals and the
 * window's). The event schemas refuse "__proto__" as an id; were one on a tape anyway, it is
 * defined, not assigned (which would set the copy's prototype).
 */
function withRun(runs: Record<string, RunSignals>, sessionId: string, run: RunSignals) {
  if (sessionId === "__proto__") return { ...runs, [sessionId]: run };
  const out = { ...runs };
  out[sessionId] = run;
  return out;
}

/** The run of the event's session, touched now; a session not among the agent's runs is a session seen (again), and the oldest run leaves past MAX_RUNS. */
function touchRun(
  a: AgentSignals,
  e: AppliedEvent,
  sessionId: string,
  change: (r: RunSignals) => RunSignals,
): AgentSignals {
  const known = own(a.runs, sessionId);
  const run = known ?? {
    ...emptyUsageTotals(),
    sessionId,
    firstAt: e.receivedAt,
    lastAt: e.receivedAt,
    toolCalls: 0,
  };
  let runs = withRun(a.runs, sessionId, change({ ...run, lastAt: e.receivedAt }));
  if (!known) {
    const ids = Object.keys(runs);
    if (ids.length > MAX_RUNS) {
      const older = (x: RunSignals, y: RunSignals) => {
        const d = Date.parse(x.lastAt) - Date.parse(y.lastAt);
        return d !== 0 ? d < 0 : x.sessionId < y.sessionId;
      };
      const oldest = ids.map((id) => runs[id]!).reduce((x, y) => (older(x, y) ? x : y));
      const { [oldest.sessionId]: _gone, ...rest } = runs;
      runs = rest;
    }
  }
  return { ...a, runs, usage: known ? a.usage : { ...a.usage, sessions: a.usage.sessions + 1 } };
}

/** A call that started and ran: one the gate denied was reported (phase started, gate deny) but never ran. */
const ranToolCall = (e: AppliedEvent) =>
  e.type === "tool.call" && e.body.phase === "started" && e.body.gate?.decision !== "deny";

function agentUsage(a: AgentSignals, e: AppliedEvent): AgentSignals {
  const day = dayOf(e.receivedAt);
  let out = a;
  if (e.type === "usage.reported") {
    const u = usageOf(e);
    out = {
      ...out,
      usage: {
        ...out.usage,
        byModel: {
          ...out.usage.byModel,
          [e.body.model]: addUsage(own(out.usage.byModel, e.body.model) ?? emptyUsageTotals(), u),
        },
      },
    };
    out = updateDay(out, day, (d) => ({ ...d, ...addUsage(d, u) }));
  }
  const ran = ranToolCall(e);
  if (e.type === "tool.call" && (ran || e.body.phase === "failed")) {
    const tools = out.usage.tools;
    const apart = Object.keys(tools).filter((t) => t !== OTHER_TOOL).length;
    const name = own(tools, e.body.tool) || apart < MAX_TOOLS ? e.body.tool : OTHER_TOOL;
    const c = own(tools, name) ?? { calls: 0, failed: 0 };
    out = {
      ...out,
      usage: {
        ...out.usage,
        tools: { ...tools, [name]: ran ? { ...c, calls: c.calls + 1 } : { ...c, failed: c.failed + 1 } },
      },
    };
    if (ran) out = updateDay(out, day, (d) => ({ ...d, toolCalls: d.toolCalls + 1 }));
  }
  if (e.sessionId && SESSION_EVENTS.has(e.type)) {
    out = touchRun(out, e, e.sessionId, (r) => {
      if (e.type === "usage.reported") return { ...r, ...addUsage(r, usageOf(e)) };
      if (ran) return { ...r, toolCalls: r.toolCalls + 1 };
      return r;
    });
  }
  return out;
}

/** The pod's cumulative cost: every usage report with a cost, whoever sent it (what a pod-wide cost budget counts). */
function costPoint(sig: PodSignals, e: AppliedEvent): PodSignals {
  if (e.type !== "usage.reported" || e.body.costUsd === undefined) return sig;
  const last = sig.cost.length ? sig.cost[sig.cost.length - 1]!.costUsd : 0;
  const cost = [...sig.cost, { seq: e.seq, at: e.receivedAt, costUsd: last + e.body.costUsd }];
  return { ...sig, cost: cost.length > MAX_COST_POINTS ? thinCostPoints(cost) : cost };
}

export function stepUsageSignals(
  sig: PodSignals,
  _before: PodState,
  after: PodState,
  e: AppliedEvent,
): PodSignals {
  if (!SESSION_EVENTS.has(e.type)) return sig;
  const out = costPoint(sig, e);
  return isAgentMember(after, e.actor) ? updateAgent(out, e.actor, (a) => agentUsage(a, e)) : out;
}
