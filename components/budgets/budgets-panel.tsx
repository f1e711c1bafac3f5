"use client";
// Budgets on the pod page: each with what it uses against its limit, whose it is and
// what crossing it does. Approvers add, edit and remove them (removing asks first); everyone else
// reads them. Closing the form puts focus back on the button that opened it.
import { useEffect, useRef, useState } from "react";
import type { PodStateView } from "@/server/wire/views";
import type { BudgetView } from "@/server/wire/signals";
import { removeBudget } from "@/server/web/server-actions";
import { useAction } from "../shared/use-action";
import { Badge, Empty, Section, Skeleton } from "../shared/ui";
import { dangerButtonClass, secondaryButtonClass } from "../pod/form-styles";
import { BudgetBar } from "./budget-bar";
import { BudgetForm } from "./budget-form";
import { ConfirmRemove } from "./confirm-remove";
import { amountOf, METRIC_LABELS, THEN_LABELS, whoseBudget, type BudgetDraft } from "./budget-view";
import { useBudgets } from "./use-budgets";

const fresh: BudgetDraft = { budgetId: "", agentId: "", metric: "cost_usd", limit: "", then: "notify" };
/** Which button opened the form ("New budget", or a budget's Edit), as its data-opener. */
const NEW = "new";
const editOf = (budgetId: string) => `edit:${budgetId}`;
const draftOf = (b: BudgetView): BudgetDraft => ({
  budgetId: b.budgetId,
  agentId: b.agentId ?? "",
  metric: b.metric,
  limit: String(b.limit),
  then: b.then,
});

export function BudgetsPanel({
  podId,
  state,
  canAct,
}: {
  podId: string;
  state: PodStateView;
  canAct: boolean;
}) {
  const budgets = useBudgets(podId);
  const [editing, setEditing] = useState<BudgetView | "new" | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const { run, pending, error } = useAction(podId);
  const root = useRef<HTMLDivElement>(null);
  const focusOpener = (key: string) =>
    root.current?.querySelector<HTMLButtonElement>(`[data-opener="${CSS.escape(key)}"]`)?.focus();
  const returnTo = useRef<string | null>(null);
  useEffect(() => {
    // After the form closes (the New budget button is back by then): focus where the person was.
    if (editing !== null || returnTo.current === null) return;
    focusOpener(returnTo.current);
    returnTo.current = null;
  }, [editing]);
  const open = (what: BudgetView | "new") => {
    setStatus(null);
    setEditing(what);
  };
  const close = (saved: boolean) => {
    returnTo.current = editing === "new" || editing === null ? NEW : editOf(editing.budgetId);
    if (saved) setStatus("Saved on the tape.");
    setEditing(null);
  };
  const agents = state.members.filter((m) => m.kind === "agent");
  const list = budgets.data ?? [];
  const remove = (b: BudgetView) =>
    run(
      () => removeBudget({ podId, budgetId: b.budgetId }),
      () => {
        setStatus(`Budget ${b.budgetId} removed on the tape.`);
        focusOpener(NEW);
      },
    );

  return (
    <div ref={root}>
      <Section
        title="Budgets"
        aside={
          canAct && editing === null ? (
            <button
              data-opener={NEW}
              type="button"
              onClick={() => open("new")}
              className={secondaryButtonClass}
            >
              New budget
            </button>
          ) : undefined
        }
      >
        <div
          className="space-y-3 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
          data-testid="budgets"
        >
          {editing !== null && (
            <BudgetForm
              key={editing === "new" ? "new" : `${editing.budgetId}@${editing.seq}`}
              podId={podId}
              agents={agents}
              initial={editing === "new" ? fresh : draftOf(editing)}
              editing={editing !== "new"}
              taken={list.map((b) => b.budgetId)}
              onDone={close}
            />
          )}
          {/* Always in the page, so screen readers announce what is put in it. */}
          <p
            role="status"
            className={status ? "text-sm text-emerald-800 dark:text-emerald-300" : "sr-only"}
            data-testid="budgets-status"
          >
            {status}
          </p>
          {budgets.isPending ? (
            <Skeleton label="Loading budgets" className="h-16 rounded-md" />
          ) : budgets.isError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              Could not load the budgets: {budgets.error.message}
            </p>
          ) : list.length === 0 ? (
            <Empty>
              No budgets: nothing watches this pod&apos;s tokens, cost, time or tool calls.
              {canAct
                ? " Add one to be told (or to hold tools, or pause) when it is crossed."
                : " An approver sets them."}
            </Empty>
          ) : (
            <ul className="space-y-3">
              {list.map((b) => (
                <li
                  key={b.budgetId}
                  className="min-w-0 space-y-1.5 border-b border-zinc-100 pb-3 last:border-0 last:pb-0 dark:border-zinc-800"
                  data-testid="budget"
                  data-budget={b.budgetId}
                  aria-label={`Budget ${b.budgetId}`}
                >
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="min-w-0 break-all font-mono text-sm font-medium">{b.budgetId}</span>
                    <Badge>{whoseBudget(b.agentId)}</Badge>
                    <Badge tone="violet">{METRIC_LABELS[b.metric]}</Badge>
                    <span className="text-xs text-zinc-600 dark:text-zinc-400">
                      then: {THEN_LABELS[b.then]}
                    </span>
                    {b.exceeded && <Badge tone="red">crossed at {amountOf(b.exceeded.used, b.metric)}</Badge>}
                  </div>
                  <BudgetBar
                    label={`Budget ${b.budgetId} used`}
                    used={b.used}
                    limit={b.limit}
                    metric={b.metric}
                  />
                  {b.uncounted.length > 0 && (
                    <p className="text-xs text-amber-800 dark:text-amber-300" data-testid="budget-uncounted">
                      Could not count the cost of {b.uncounted.join(", ")}: unknown model (no price list knows
                      it; an operator adds it in PODWATCH_MODEL_PRICES).
                    </p>
                  )}
                  {canAct && (
                    <div className="flex flex-wrap gap-2">
                      <button
                        data-opener={editOf(b.budgetId)}
                        type="button"
                        onClick={() => open(b)}
                        className={secondaryButtonClass}
                        aria-label={`Edit budget ${b.budgetId}`}
                      >
                        Edit
                      </button>
                      <ConfirmRemove
                        budgetId={b.budgetId}
                        pending={pending}
                        onConfirm={() => remove(b)}
                        buttonClass={secondaryButtonClass}
                        confirmClass={dangerButtonClass}
                        label={`Remove budget ${b.budgetId}`}
                      >
                        Remove
                      </ConfirmRemove>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
          {error && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
        </div>
      </Section>
    </div>
  );
}
