// An agent's trends for the Agents page: per day (gaps filled) its cost and reviews given, and
// the words a screen reader hears for each sparkline.
import type { AgentSignalsView } from "@/server/wire/signals";
import { dayOf, dayRange, reviewRows } from "./chart-data";
import { usd } from "./format-signals";

type AgentTrends = {
  days: string[];
  cost: number[];
  reviews: number[];
  costLabel: string;
  reviewsLabel: string;
};

export function agentTrends(a: AgentSignalsView): AgentTrends {
  const days = dayRange(Object.keys(a.days));
  const cost = days.map((d) => dayOf(a, d)?.costUsd ?? 0);
  // The same days as `days` (both span the agent's day keys).
  const reviews = reviewRows(a).map((r) => r.approve + r.changes_requested + r.reject);
  const span = days.length === 1 ? ` on ${days[0]}` : ` from ${days[0]} to ${days.at(-1)}`;
  const label = (what: string, values: string[]) =>
    days.length === 0 ? `${what} per day: none yet` : `${what} per day${span}: ${values.join(", ")}`;
  return {
    days,
    cost,
    reviews,
    costLabel: label("Cost", cost.map(usd)),
    reviewsLabel: label("Reviews", reviews.map(String)),
  };
}
