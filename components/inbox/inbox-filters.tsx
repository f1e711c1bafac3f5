"use client";
// The inbox's controls: group by pod, agent or kind; filter by pod, agent and kind (each option with
// how many items it has); search the items' words. One row on a desktop, stacked on a phone.
import { useId, useState } from "react";
import type { Grouping, InboxFilters, InboxView, Option } from "./inbox-view";
import { MAX_QUERY } from "./inbox-view";

const box = "flex min-w-0 flex-col gap-1 text-xs text-zinc-600 dark:text-zinc-400";
const field =
  "min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 " +
  "dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

export function InboxFilterBar({
  filters,
  view,
  onChange,
}: {
  filters: InboxFilters;
  view: InboxView;
  onChange: (change: Partial<InboxFilters>) => void;
}) {
  const [text, setText] = useState(filters.q ?? "");
  const searchId = useId();
  const search = (q: string) => {
    setText(q);
    onChange({ q: q.trim() ? q : undefined });
  };
  return (
    <form
      role="search"
      aria-label="Inbox filters"
      className="grid grid-cols-2 gap-2 lg:grid-cols-[minmax(12rem,2fr)_repeat(4,minmax(0,1fr))]"
      onSubmit={(e) => e.preventDefault()}
    >
      <div className={`${box} col-span-2 lg:col-span-1`}>
        <label htmlFor={searchId}>Search</label>
        <input
          id={searchId}
          type="search"
          className={field}
          value={text}
          maxLength={MAX_QUERY}
          placeholder="Words of a question, a tool, a pod…"
          onChange={(e) => search(e.target.value)}
          data-testid="inbox-search"
        />
      </div>
      <Choice label="Group by" value={filters.by} onChange={(v) => onChange({ by: v as Grouping })}>
        <option value="pod">Pod</option>
        <option value="agent">Agent</option>
        <option value="kind">Kind</option>
      </Choice>
      <Filter
        label="Pod"
        all="All pods"
        value={filters.pod}
        options={view.options.pod}
        set={(pod) => onChange({ pod })}
      />
      <Filter
        label="Agent"
        all="All agents"
        value={filters.agent}
        options={view.options.agent}
        set={(agent) => onChange({ agent })}
      />
      <Filter
        label="Kind"
        all="All kinds"
        value={filters.kind}
        options={view.options.kind}
        set={(kind) => onChange({ kind })}
      />
    </form>
  );
}

function Choice({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  children: React.ReactNode;
}) {
  const id = useId();
  return (
    <div className={box}>
      <label htmlFor={id}>{label}</label>
      <select id={id} className={field} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

/** A filter's options are what the inbox holds; a chosen value the inbox no longer has stays listed (0). */
function Filter(props: {
  label: string;
  all: string;
  value: string | undefined;
  options: Option[];
  set: (v: string | undefined) => void;
}) {
  const { label, all, value, options, set } = props;
  const listed =
    value && !options.some((o) => o.value === value)
      ? [...options, { value, label: value, count: 0 }]
      : options;
  return (
    <Choice label={label} value={value ?? ""} onChange={(v) => set(v || undefined)}>
      <option value="">{all}</option>
      {listed.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label} ({o.count})
        </option>
      ))}
    </Choice>
  );
}
