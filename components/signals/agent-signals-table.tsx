"use client";
// Each agent's signals in one row, grouped as implementer, reviewer, cadence, escalations,
// contracting and usage. A column header is a button (Enter or Space sorts, again turns it round).
// The counts behind a figure are in its title for a mouse, read with the figure by a screen reader,
// and shown under it with "Show the counts" (a keyboard or a phone has no hover). On a phone the
// table scrolls sideways, not the page (the region is positioned, so the hidden counts, placed
// absolutely, stay inside its scroll too).
import { useId, useState } from "react";
import type { AgentSignalsView } from "@/server/wire/signals";
import { SIGNAL_COLUMNS, nextSort, sortAgents, type Column, type SortState } from "./signal-columns";

const groups = SIGNAL_COLUMNS.reduce<{ name: string; span: number }[]>((out, c) => {
  const last = out.at(-1);
  if (last?.name === c.group) last.span += 1;
  else out.push({ name: c.group, span: 1 });
  return out;
}, []);

export function AgentSignalsTable({
  agents,
  caption = "Signals per agent",
}: {
  agents: AgentSignalsView[];
  caption?: string;
}) {
  const [sort, setSort] = useState<SortState>({ column: "agent", dir: "ascending" });
  const [showCounts, setShowCounts] = useState(false);
  const toggleId = useId();
  const rows = sortAgents(agents, sort);
  const sorted = SIGNAL_COLUMNS.find((c) => c.id === sort.column);
  return (
    <div className="space-y-1.5">
      <label
        htmlFor={toggleId}
        className="flex w-fit items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400"
      >
        <input
          id={toggleId}
          type="checkbox"
          checked={showCounts}
          onChange={(e) => setShowCounts(e.target.checked)}
          className="accent-sky-700"
        />
        Show the counts behind each figure
      </label>
      <div
        role="region"
        aria-label={caption}
        tabIndex={0}
        className="relative overflow-x-auto rounded-lg border border-zinc-200 focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-zinc-800"
        data-testid="signals-table"
      >
        <table className="min-w-full text-sm tabular-nums">
          <caption className="sr-only">{`${caption}, sorted by ${sorted?.label ?? "agent"} ${sort.dir}`}</caption>
          <thead className="bg-zinc-50 text-xs text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
            <tr>
              {groups.map((g) => (
                <th
                  key={g.name}
                  scope="colgroup"
                  colSpan={g.span}
                  className="border-b border-l border-zinc-200 px-2 pt-1.5 text-left font-medium uppercase tracking-wide first:border-l-0 dark:border-zinc-800"
                >
                  {g.name === "Agent" ? "" : g.name}
                </th>
              ))}
            </tr>
            <tr>
              {SIGNAL_COLUMNS.map((c) => (
                <SortHeader
                  key={c.id}
                  column={c}
                  sort={sort}
                  onSort={() => setSort((s) => nextSort(s, c.id))}
                />
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {rows.map((a) => (
              <tr
                key={a.agentId}
                data-testid="signals-row"
                data-agent={a.agentId}
                className="bg-white dark:bg-zinc-950"
              >
                {SIGNAL_COLUMNS.map((c) =>
                  c.id === "agent" ? (
                    <th
                      key={c.id}
                      scope="row"
                      title={c.title?.(a)}
                      className="whitespace-nowrap px-2 py-1.5 text-left align-top font-medium text-zinc-900 dark:text-zinc-100"
                    >
                      {c.text(a)}
                    </th>
                  ) : (
                    <td
                      key={c.id}
                      data-col={c.id}
                      title={c.title?.(a)}
                      className="whitespace-nowrap px-2 py-1.5 text-right align-top text-zinc-700 dark:text-zinc-300"
                    >
                      <span data-testid="signal-value">{c.text(a)}</span>
                      {c.title && (
                        <span
                          data-testid="signal-counts"
                          className={
                            showCounts
                              ? "block min-w-40 max-w-64 whitespace-normal text-[11px] text-zinc-600 dark:text-zinc-400"
                              : "sr-only"
                          }
                        >
                          {" "}
                          {c.title(a)}
                        </span>
                      )}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function SortHeader({ column, sort, onSort }: { column: Column; sort: SortState; onSort: () => void }) {
  const active = sort.column === column.id;
  return (
    <th
      scope="col"
      aria-sort={active ? sort.dir : undefined}
      className={`whitespace-nowrap border-b border-zinc-200 px-1 py-1 font-medium dark:border-zinc-800 ${column.id === "agent" ? "text-left" : "text-right"}`}
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
    </th>
  );
}
