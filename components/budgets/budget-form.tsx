"use client";
// Adding or editing one budget: its name, whose it is, what it counts, the limit and what
// crossing it does. Problems are shown per field as the person types (after a first try), and
// the server's refusal under the form; Escape cancels.
import { useId, useState } from "react";
import {
  BUDGET_ACTIONS,
  BUDGET_METRICS,
  type BudgetAction,
  type BudgetMetric,
} from "@/server/wire/vocabulary";
import { setBudget } from "@/server/web/server-actions";
import { useAction } from "../shared/use-action";
import { buttonClass, inputClass, secondaryButtonClass } from "../pod/form-styles";
import { draftProblems, METRIC_LABELS, THEN_LABELS, type BudgetDraft } from "./budget-view";

/** onDone(saved): after a save (true), a cancel or Escape (false); the panel closes the form. */
type Props = {
  podId: string;
  agents: { memberId: string; displayName: string }[];
  initial: BudgetDraft;
  editing: boolean;
  taken: string[];
  onDone: (saved: boolean) => void;
};

const field = "flex min-w-0 flex-col gap-1 text-sm";
const labelClass = "font-medium";

export function BudgetForm({ podId, agents, initial, editing, taken, onDone }: Props) {
  const [d, setD] = useState(initial);
  const [tried, setTried] = useState(false);
  const { run, pending, error } = useAction(podId);
  const id = useId();
  const problems = draftProblems(d, taken, editing);
  const show = tried ? problems : {};
  const set =
    <K extends keyof BudgetDraft>(k: K) =>
    (v: BudgetDraft[K]) =>
      setD((x) => ({ ...x, [k]: v }));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (Object.keys(problems).length) return;
    const input = {
      podId,
      budgetId: d.budgetId.trim(),
      ...(d.agentId ? { agentId: d.agentId } : {}),
      metric: d.metric,
      limit: Number(d.limit),
      then: d.then,
    };
    run(
      () => setBudget(input),
      () => onDone(true),
    );
  };
  // Problems sit beside their field, outside its label (a label is the field's name, nothing more).
  const problemId = (k: "budgetId" | "limit") => (show[k] ? `${id}-${k}-problem` : undefined);
  const problem = (k: "budgetId" | "limit") =>
    show[k] && (
      <span id={problemId(k)} className="text-xs text-red-700 dark:text-red-400">
        {show[k]}
      </span>
    );

  return (
    <form
      onSubmit={submit}
      onKeyDown={(e) => e.key === "Escape" && onDone(false)}
      noValidate
      aria-label={editing ? `Edit budget ${initial.budgetId}` : "New budget"}
      className="grid gap-3 rounded-md border border-zinc-200 p-3 sm:grid-cols-2 dark:border-zinc-800"
      data-testid="budget-form"
    >
      <div className={field}>
        <label htmlFor={`${id}-name`} className={labelClass}>
          Name
        </label>
        <input
          id={`${id}-name`}
          value={d.budgetId}
          onChange={(e) => set("budgetId")(e.target.value)}
          disabled={editing}
          maxLength={200}
          aria-invalid={!!show.budgetId}
          aria-describedby={problemId("budgetId")}
          className={inputClass}
          autoFocus={!editing}
        />
        {problem("budgetId")}
      </div>
      <div className={field}>
        <label htmlFor={`${id}-agent`} className={labelClass}>
          Counts
        </label>
        <select
          id={`${id}-agent`}
          value={d.agentId}
          onChange={(e) => set("agentId")(e.target.value)}
          disabled={editing}
          className={inputClass}
        >
          <option value="">the whole pod</option>
          {agents.map((a) => (
            <option key={a.memberId} value={a.memberId}>
              agent {a.displayName} ({a.memberId})
            </option>
          ))}
        </select>
      </div>
      <div className={field}>
        <label htmlFor={`${id}-metric`} className={labelClass}>
          Metric
        </label>
        <select
          id={`${id}-metric`}
          value={d.metric}
          onChange={(e) => set("metric")(e.target.value as BudgetMetric)}
          disabled={editing}
          className={inputClass}
        >
          {BUDGET_METRICS.map((m) => (
            <option key={m} value={m}>
              {METRIC_LABELS[m]}
            </option>
          ))}
        </select>
      </div>
      <div className={field}>
        <label htmlFor={`${id}-limit`} className={labelClass}>
          Limit
        </label>
        <input
          id={`${id}-limit`}
          value={d.limit}
          onChange={(e) => set("limit")(e.target.value)}
          inputMode="decimal"
          aria-invalid={!!show.limit}
          aria-describedby={problemId("limit")}
          className={inputClass}
          autoFocus={editing}
        />
        {problem("limit")}
      </div>
      <div className={`${field} sm:col-span-2`}>
        <label htmlFor={`${id}-then`} className={labelClass}>
          When crossed
        </label>
        <select
          id={`${id}-then`}
          value={d.then}
          onChange={(e) => set("then")(e.target.value as BudgetAction)}
          className={inputClass}
        >
          {BUDGET_ACTIONS.map((t) => (
            <option key={t} value={t}>
              {THEN_LABELS[t]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap items-center gap-2 sm:col-span-2">
        <button type="submit" disabled={pending} className={buttonClass}>
          {editing ? "Save budget" : "Add budget"}
        </button>
        <button type="button" onClick={() => onDone(false)} className={secondaryButtonClass}>
          Cancel
        </button>
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
    </form>
  );
}
