"use client";
// The Signals tab's period: a native select (named "Period"), and the sentence that says what the
// figures below count, announced when it changes.
import { useId } from "react";
import { PERIODS, parsePeriod, periodCaption, type Period } from "./signals-period";

export function PeriodSelect({
  period,
  onChange,
  updating,
}: {
  period: Period;
  onChange: (p: Period) => void;
  updating: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <label htmlFor={id} className="text-sm">
        Period
      </label>
      <select
        id={id}
        value={period}
        onChange={(e) => onChange(parsePeriod(e.target.value))}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      >
        {PERIODS.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
      </select>
      <p aria-live="polite" className="text-sm text-zinc-600 dark:text-zinc-400">
        <span data-testid="signals-period-caption">{periodCaption(period)}</span>
        {updating && <span className="ml-1">(updating…)</span>}
      </p>
    </div>
  );
}
