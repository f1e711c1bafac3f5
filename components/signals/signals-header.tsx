"use client";
// The signals table's two header rows: the families of figures, then each figure's sort button
// and its explanation ("?"). The agent column's cells are sticky like the rows' agent names.
import { SIGNAL_COLUMNS, type ExplainedColumn, type SortState } from "./signal-columns";
import { ExplainButton } from "./explain-button";
import type { ExtraColumn } from "./agent-signals-table";

const groups = SIGNAL_COLUMNS.reduce<{ name: string; span: number }[]>((out, c) => {
  const last = out.at(-1);
  if (last?.name === c.group) last.span += 1;
  else out.push({ name: c.group, span: 1 });
  return out;
}, []);

const groupCell =
  "border-b border-l border-zinc-200 px-2 pt-1.5 text-left font-medium uppercase tracking-wide first:border-l-0 dark:border-zinc-800";

export function SignalsHeader({
  sort,
  onSort,
  stickyClass,
  extra,
}: {
  sort: SortState;
  onSort: (column: ExplainedColumn["id"]) => void;
  stickyClass: string;
  extra?: ExtraColumn;
}) {
  return (
    <thead className="text-xs text-zinc-600 dark:text-zinc-400">
      <tr>
        {groups.map((g) => (
          <th
            key={g.name}
            scope="colgroup"
            colSpan={g.span}
            className={`${groupCell} ${g.name === "Agent" ? stickyClass : ""} bg-zinc-50 dark:bg-zinc-900`}
          >
            {g.name === "Agent" ? "" : g.name}
          </th>
        ))}
        {extra && <td className={`${groupCell} bg-zinc-50 dark:bg-zinc-900`} />}
      </tr>
      <tr>
        {SIGNAL_COLUMNS.map((c) => (
          <SortHeader
            key={c.id}
            column={c}
            sort={sort}
            onSort={() => onSort(c.id)}
            className={c.id === "agent" ? `${stickyClass} text-left` : "text-right"}
          />
        ))}
        {extra && (
          <th
            scope="col"
            className="whitespace-nowrap border-b border-zinc-200 bg-zinc-50 px-2 py-1 text-left font-medium dark:border-zinc-800 dark:bg-zinc-900"
          >
            {extra.label}
            <ExplainButton label={extra.label} explain={extra.explain} />
          </th>
        )}
      </tr>
    </thead>
  );
}

function SortHeader({
  column,
  sort,
  onSort,
  className,
}: {
  column: ExplainedColumn;
  sort: SortState;
  onSort: () => void;
  className: string;
}) {
  const active = sort.column === column.id;
  return (
    <th
      scope="col"
      aria-sort={active ? sort.dir : undefined}
      className={`whitespace-nowrap border-b border-zinc-200 bg-zinc-50 px-1 py-1 font-medium dark:border-zinc-800 dark:bg-zinc-900 ${className}`}
    >
      <button
        type="button"
        onClick={onSort}
        className="rounded px-1 py-0.5 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-sky-600 dark:hover:text-zinc-100"
      >
        {column.label}
        <span aria-hidden className="ml-0.5 inline-block w-2">
          {active ? (sort.dir === "ascending" ? "↑" : "↓") : ""}
        </span>
      </button>
      <ExplainButton label={column.label} explain={column.explain} />
    </th>
  );
}
