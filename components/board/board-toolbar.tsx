"use client";
// The board's search, filters and grouping. "/" anywhere on the page (outside a field) goes to the
// search box, Escape in it clears it.
import { useEffect, useId, useRef, type ReactNode } from "react";
import { inputClass, secondaryButtonClass } from "../pod/form-styles";
import { LANES, UNASSIGNED, isLane, type Grouping } from "./board-model";
import type { BoardQuery } from "./board-query";

const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

export function BoardToolbar({
  text,
  onText,
  query,
  update,
  assignees,
  names,
  fields,
  matched,
  total,
}: {
  text: string;
  onText: (q: string) => void;
  query: BoardQuery;
  update: (patch: Partial<BoardQuery>) => void;
  assignees: string[];
  names: Map<string, string>;
  fields: string[];
  matched: number;
  total: number;
}) {
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      e.preventDefault();
      search.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const grouping = query.grouping.by === "field" ? `field:${query.grouping.field}` : query.grouping.by;
  const toGrouping = (v: string): Grouping =>
    v === "assignee"
      ? { by: "assignee" }
      : v.startsWith("field:")
        ? { by: "field", field: v.slice(6) }
        : { by: "state" };
  const filtered = text || query.lane || query.assignee;
  const id = useId();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm" role="search" aria-label="Tasks">
      <input
        ref={search}
        type="search"
        aria-label="Search tasks"
        placeholder="Search by id, title or assignee  ( / )"
        value={text}
        onChange={(e) => onText(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && text && (e.preventDefault(), onText(""))}
        maxLength={200}
        className={`${inputClass} w-full sm:w-72`}
      />
      <Field id={`${id}-state`} label="State">
        <select
          id={`${id}-state`}
          value={query.lane}
          onChange={(e) => update({ lane: isLane(e.target.value) ? e.target.value : "" })}
          className={inputClass}
        >
          <option value="">Any state</option>
          {LANES.map((l) => (
            <option key={l.key} value={l.key}>
              {l.title}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${id}-assignee`} label="Assignee">
        <select
          id={`${id}-assignee`}
          value={query.assignee}
          onChange={(e) => update({ assignee: e.target.value })}
          className={`${inputClass} max-w-48`}
        >
          <option value="">Anyone</option>
          <option value={UNASSIGNED}>Unassigned</option>
          {assignees.map((id) => (
            <option key={id} value={id}>
              {names.get(id) && names.get(id) !== id ? `${names.get(id)} (${id})` : id}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${id}-group`} label="Group by">
        <select
          id={`${id}-group`}
          value={grouping}
          onChange={(e) => update({ grouping: toGrouping(e.target.value) })}
          className={inputClass}
        >
          <option value="state">State</option>
          <option value="assignee">Assignee</option>
          {fields.map((f) => (
            <option key={f} value={`field:${f}`}>
              {f}
            </option>
          ))}
        </select>
      </Field>
      {filtered && (
        <button
          type="button"
          onClick={() => (onText(""), update({ lane: "", assignee: "" }))}
          className={secondaryButtonClass}
        >
          Clear
        </button>
      )}
      <p role="status" className="tabular-nums text-zinc-600 dark:text-zinc-400" data-testid="board-summary">
        {filtered
          ? `${matched.toLocaleString("en")} of ${total.toLocaleString("en")} tasks`
          : `${total.toLocaleString("en")} tasks`}
      </p>
    </div>
  );
}

/** A label beside its control, named by its own words only (not the option the control shows). */
function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <span className="flex min-w-0 items-center gap-1.5">
      <label htmlFor={id} className="text-zinc-600 dark:text-zinc-400">
        {label}
      </label>
      {children}
    </span>
  );
}
