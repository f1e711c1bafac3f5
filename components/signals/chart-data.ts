// The charts' data and the sentences that say the same in words (each figure's caption, and what
// a screen reader hears), built from a PodSignalsView. Pure, so the numbers are unit-tested.
import type { DaySignals } from "@/server/domain/signals/signal-types";
import type { AgentSignalsView, BudgetView, PodSignalsView } from "@/server/wire/signals";
import { agentName } from "./signal-columns";
import { count, plural, usd } from "./format-signals";

/** At most this many days on a chart: the latest, so a long-lived pod stays readable on a phone. */
export const MAX_DAYS = 45;
const DAY_MS = 86_400_000;

/** Every UTC day from the first to the last key (gaps filled, so a quiet day shows as one), the latest MAX_DAYS. */
export function dayRange(keys: string[]): string[] {
  const valid = keys
    .filter((k) => /^\d{4}-\d{2}-\d{2}$/.test(k) && Number.isFinite(Date.parse(`${k}T00:00:00Z`)))
    .sort();
  if (valid.length === 0) return [];
  const last = Date.parse(`${valid.at(-1)}T00:00:00Z`);
  const first = Math.max(Date.parse(`${valid[0]}T00:00:00Z`), last - (MAX_DAYS - 1) * DAY_MS);
  const out: string[] = [];
  for (let t = first; t <= last; t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** One UTC day of an agent's (or the pod's) signals; undefined on a quiet day. Own keys only: a day key is data. */
export const dayOf = (a: Pick<AgentSignalsView, "days">, day: string): DaySignals | undefined =>
  Object.hasOwn(a.days, day) ? a.days[day] : undefined;

export const costBudgets = (v: PodSignalsView): BudgetView[] =>
  v.budgets.filter((b) => b.metric === "cost_usd" && b.agentId === null);

type CostRow = { t: number; costUsd: number; seq: number };
export const costRows = (v: PodSignalsView): CostRow[] =>
  v.cost.map((p) => ({ t: Date.parse(p.at), costUsd: p.costUsd, seq: p.seq }));

/** "$4.20 of $5.00 (budget b-cost)"; each pod cost budget, or what was spent when none is set. */
export function costCaption(v: PodSignalsView): string {
  const spent = v.cost.at(-1)?.costUsd ?? 0;
  if (v.cost.length === 0 && costBudgets(v).length === 0) return "No cost reported yet.";
  const budgets = costBudgets(v);
  if (budgets.length === 0) return `${usd(spent)} spent; no cost budget set.`;
  return `${budgets.map((b) => `${usd(b.used)} of ${usd(b.limit)} (budget ${b.budgetId})${b.exceeded ? `, exceeded at ${usd(b.exceeded.used)}` : ""}`).join("; ")}.`;
}

type ReviewRow = { day: string; approve: number; changes_requested: number; reject: number };
/** Review verdicts given per day, quiet days as zeros. */
export function reviewRows(a: Pick<AgentSignalsView, "days">): ReviewRow[] {
  return dayRange(Object.keys(a.days)).map((day) => {
    const r = dayOf(a, day)?.reviews;
    return {
      day,
      approve: r?.approve ?? 0,
      changes_requested: r?.changes_requested ?? 0,
      reject: r?.reject ?? 0,
    };
  });
}

export function reviewCaption(rows: ReviewRow[]): string {
  const t = rows.reduce(
    (s, r) => ({
      approve: s.approve + r.approve,
      changes: s.changes + r.changes_requested,
      reject: s.reject + r.reject,
    }),
    { approve: 0, changes: 0, reject: 0 },
  );
  const all = t.approve + t.changes + t.reject;
  if (all === 0) return "No reviews yet.";
  return `${plural(all, "review")} over ${plural(rows.length, "day")}: ${count(t.approve)} approve, ${count(t.changes)} changes requested, ${count(t.reject)} reject.`;
}

type CadenceRow = { day: string; onTime: number; late: number };
type AgentCadence = {
  agentId: string;
  name: string;
  rows: CadenceRow[];
  onTime: number;
  late: number;
  staleEpisodes: number;
};

/** Per agent that has checkpointed or gone stale: its checkpoints per day on time and late, over the pod's common days. */
export function cadenceByAgent(v: PodSignalsView): AgentCadence[] {
  const watched = v.agents.filter((a) => a.cadence.onTime + a.cadence.late + a.cadence.staleEpisodes > 0);
  const days = dayRange(
    watched.flatMap((a) =>
      Object.keys(a.days).filter((d) => {
        const c = dayOf(a, d)?.checkpoints;
        return !!c && c.onTime + c.late > 0;
      }),
    ),
  );
  return watched.map((a) => ({
    agentId: a.agentId,
    name: agentName(a),
    rows: days.map((day) => {
      const c = dayOf(a, day)?.checkpoints;
      return { day, onTime: c?.onTime ?? 0, late: c?.late ?? 0 };
    }),
    onTime: a.cadence.onTime,
    late: a.cadence.late,
    staleEpisodes: a.cadence.staleEpisodes,
  }));
}

export function cadenceCaption(agents: AgentCadence[]): string {
  if (agents.length === 0) return "No checkpoints yet.";
  return `${agents.map((a) => `${a.name}: ${count(a.onTime)} on time, ${count(a.late)} late, ${plural(a.staleEpisodes, "staleness episode")}`).join("; ")}.`;
}

/** "Mar 3": a day key as an axis label (UTC, as the days are kept). */
export const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

/** Whether an agent has done anything the signals count (a member that only joined has not). */
export const hasActivity = (a: AgentSignalsView) =>
  a.reviewer.reviews +
    a.implementer.tasksApproved +
    a.implementer.tasksRejected +
    a.implementer.changesRequested +
    a.implementer.evidencePassed.of +
    a.cadence.onTime +
    a.cadence.late +
    a.cadence.staleEpisodes +
    a.escalations.raised +
    a.handoffs.given +
    a.contracting.delivered +
    a.usage.sessions +
    a.rates.totalTokens +
    a.rates.toolCalls +
    a.rates.costUsd >
  0;

export const hasSignals = (v: PodSignalsView) => v.cost.length > 0 || v.agents.some(hasActivity);
