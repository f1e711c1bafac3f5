// Every budget of the pod with what it uses now, in words, read the same as on the Budgets panel
// and the inbox card: "b-tools · agent impl: 12 tool calls of 100 tool calls". Cost budgets are
// also drawn on the burn-down; the others have no chart of their own.
import type { BudgetView } from "@/server/wire/signals";
import { amountOf, whoseBudget } from "../budgets/budget-view";
import { Badge } from "../shared/ui";

export function BudgetsSummary({ budgets }: { budgets: BudgetView[] }) {
  if (budgets.length === 0) return null;
  return (
    <ul
      aria-label="Budgets"
      className="flex flex-wrap gap-2 text-xs text-zinc-600 dark:text-zinc-400"
      data-testid="signals-budgets"
    >
      {budgets.map((b) => (
        <li
          key={b.budgetId}
          className="min-w-0 break-words rounded-md border border-zinc-200 px-2 py-1 dark:border-zinc-800"
        >
          <span className="break-all font-mono text-zinc-900 dark:text-zinc-100">{b.budgetId}</span> ·{" "}
          {whoseBudget(b.agentId)}: {amountOf(b.used, b.metric)} of {amountOf(b.limit, b.metric)}
          {b.exceeded && (
            <span className="ml-1">
              <Badge tone="red">crossed at {amountOf(b.exceeded.used, b.metric)}</Badge>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
