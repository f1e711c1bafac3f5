// Every budget of the pod with what it uses now, in words: "b-tools (impl): 12 of 100 tool calls".
// Cost budgets are also drawn on the burn-down; the others have no chart of their own.
import { BUDGET_UNITS, budgetAmount } from "@/server/wire/vocabulary";
import type { BudgetView } from "@/server/wire/signals";
import { Badge } from "../shared/ui";

export function BudgetsSummary({ budgets }: { budgets: BudgetView[] }) {
  if (budgets.length === 0) return null;
  return (
    <ul aria-label="Budgets" className="flex flex-wrap gap-2 text-xs text-zinc-600 dark:text-zinc-400" data-testid="signals-budgets">
      {budgets.map((b) => (
        <li key={b.budgetId} className="rounded-md border border-zinc-200 px-2 py-1 dark:border-zinc-800">
          <span className="font-mono text-zinc-900 dark:text-zinc-100">{b.budgetId}</span>
          {b.agentId ? ` (${b.agentId})` : " (pod)"}: {budgetAmount(b.used)} of {budgetAmount(b.limit)} {BUDGET_UNITS[b.metric]}
          {b.exceeded && <span className="ml-1"><Badge tone="red">exceeded</Badge></span>}
        </li>
      ))}
    </ul>
  );
}
