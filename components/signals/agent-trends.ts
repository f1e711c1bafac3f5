// An agent's trends for the Agents page: per day (gaps filled) its cost and reviews given, and
// the words a screen reader hears for each sparkline.
import type { AgentSignalsView } from "@/server/wire/signals";
import { dayRange } from "./chart-data";
import { usd } from "./format-signals";

export type AgentTrends = { days: string[]; cost: number[]; reviews: number[]; costLabel: string; reviewsLabel: string };

export function agentTrends(a: AgentSignalsView): AgentTrends {
  const days = dayRange(Object.keys(a.days));
  const at = (d: string) => (Object.hasOwn(a.days, d) ? a.days[d] : undefined);
  const cost = days.map((d) => at(d)?.costUsd ?? 0);
  const reviews = days.map((d) => { const r = at(d)?.reviews; return r ? r.approve + r.reject + r.changes_requested : 0; });
  const span = days.length === 1 ? ` on ${days[0]}` : ` from ${days[0]} to ${days.at(-1)}`;
  const label = (what: string, values: string[]) => (days.length === 0 ? `${what} per day: none yet` : `${what} per day${span}: ${values.join(", ")}`);
  return { days, cost, reviews, costLabel: label("Cost", cost.map(usd)), reviewsLabel: label("Reviews", reviews.map(String)) };
}
