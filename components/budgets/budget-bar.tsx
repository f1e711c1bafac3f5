// A budget's use against its limit: a bar (full past the limit, red once crossed) with the
// numbers beside it, so the figure is read, not guessed from a colour.
import type { BudgetMetric } from "@/server/wire/vocabulary";
import { amountOf, percentUsed } from "./budget-view";

export function BudgetBar({
  label,
  used,
  limit,
  metric,
}: {
  label: string;
  used: number;
  limit: number;
  metric: BudgetMetric;
}) {
  const pct = percentUsed(used, limit);
  const over = used >= limit;
  const text = `${amountOf(used, metric)} of ${amountOf(limit, metric)}`;
  return (
    <div className="min-w-0 space-y-1">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={text}
        className="h-2 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div
          className={`h-full rounded-full ${over ? "bg-red-600 dark:bg-red-500" : pct >= 80 ? "bg-amber-500" : "bg-emerald-600 dark:bg-emerald-500"}`}
          style={{ width: `${pct}%` }}
        />
      </div>
      <p
        className={`text-xs ${over ? "font-medium text-red-800 dark:text-red-300" : "text-zinc-600 dark:text-zinc-400"}`}
        data-testid="budget-numbers"
      >
        {text}
      </p>
    </div>
  );
}
