"use client";
// A crossed budget on its inbox card: the numbers (used of limit, the metric, whose,
// what followed) with a bar, and what an approver may do — raise the limit (a new round), remove
// the budget (asked first), and resume the pod when the budget paused it.
import { useId, useState } from "react";
import type { InboxCard } from "@/server/wire/views";
import { removeBudget, setBudget, setPaused } from "@/server/web/server-actions";
import { BudgetBar } from "../budgets/budget-bar";
import { amountOf, draftProblems, METRIC_LABELS, suggestedLimit, whoseBudget } from "../budgets/budget-view";
import { ConfirmRemove } from "../budgets/confirm-remove";
import { fieldLabel, greenButton, plainButton, redButton } from "./card-styles";

type Props = {
  podId: string;
  item: InboxCard;
  canAct: boolean;
  pending: boolean;
  error: string | null;
  act: (action: () => Promise<{ ok: boolean; error?: string }>) => void;
};

const FOLLOWED = {
  notify: "Nothing more: this is the notice.",
  hold_tools: "Each of the agent's tool calls now asks a person first.",
  pause_pod: "The pod was paused.",
} as const;

export function BudgetCrossedPanel({ podId, item, canAct, pending, error, act }: Props) {
  const b = item.context?.kind === "budget" ? item.context : null;
  const [limit, setLimit] = useState(() => (b ? String(suggestedLimit(b.usedNow, b.limit, b.metric)) : ""));
  const limitId = useId();
  const problemId = `${limitId}-problem`;
  if (!b) return null;
  const used = b.usedAtCrossing ?? b.usedNow;
  const problem = draftProblems(
    { budgetId: b.budgetId, agentId: b.agentId ?? "", metric: b.metric, limit, then: b.then },
    [],
    true,
  ).limit;
  const remove = () => act(() => removeBudget({ podId, budgetId: b.budgetId }));
  const raise = () =>
    act(() =>
      setBudget({
        podId,
        budgetId: b.budgetId,
        ...(b.agentId ? { agentId: b.agentId } : {}),
        metric: b.metric,
        limit: Number(limit),
        then: b.then,
      }),
    );

  return (
    <div className="space-y-2" data-testid="budget-crossed">
      <p className="text-xs break-words text-zinc-700 dark:text-zinc-300">
        <span className={fieldLabel}>Budget </span>
        <span className="font-mono">{b.budgetId}</span>
        <span className={fieldLabel}> · counts </span>
        {whoseBudget(b.agentId)}
        <span className={fieldLabel}> · </span>
        {METRIC_LABELS[b.metric]}
      </p>
      <BudgetBar label={`Budget ${b.budgetId} used`} used={used} limit={b.limit} metric={b.metric} />
      {b.usedAtCrossing !== null && b.usedNow > b.usedAtCrossing && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">Now at {amountOf(b.usedNow, b.metric)}.</p>
      )}
      <p className="text-xs font-medium text-amber-900 dark:text-amber-300" data-testid="budget-followed">
        {FOLLOWED[b.then]}
      </p>
      {!canAct && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="read-only">
          Read-only: you can watch this pod; an approver decides.
        </p>
      )}
      {canAct && (
        <div className="space-y-2">
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex flex-col gap-1">
              <label htmlFor={limitId} className={fieldLabel}>
                New limit ({METRIC_LABELS[b.metric]})
              </label>
              <input
                id={limitId}
                value={limit}
                onChange={(e) => setLimit(e.target.value)}
                inputMode="decimal"
                aria-invalid={!!problem}
                aria-describedby={problem ? problemId : undefined}
                className="w-32 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950"
              />
            </div>
            <button
              disabled={pending || !!problem}
              onClick={raise}
              aria-describedby={problem ? problemId : undefined}
              className={greenButton}
            >
              Raise the limit
            </button>
            <ConfirmRemove
              budgetId={b.budgetId}
              pending={pending}
              onConfirm={remove}
              buttonClass={plainButton}
              confirmClass={redButton}
            >
              Remove the budget
            </ConfirmRemove>
            {b.then === "pause_pod" && b.podStatus === "paused" && (
              <button
                disabled={pending}
                onClick={() => act(() => setPaused({ podId, paused: false }))}
                className={plainButton}
              >
                Resume pod
              </button>
            )}
          </div>
          {problem && (
            <p id={problemId} className="text-xs text-red-700 dark:text-red-400" data-testid="raise-blocked">
              Raise the limit is disabled: {problem.charAt(0).toLowerCase()}
              {problem.slice(1)}.
            </p>
          )}
          {error && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
