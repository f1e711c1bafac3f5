"use client";
// Each agent's signals in one row, grouped as implementer, reviewer, cadence, escalations,
// contracting and usage (the pod's Signals tab and the Agents page). A column header is a button
// (Enter or Space sorts, again turns it round) with a "?" beside it for what the figure means.
// The counts behind a figure are in its title for a mouse, read with the figure by a screen reader,
// and shown under it with "Show the counts" (a keyboard or a phone has no hover). A table wider
// than its box scrolls sideways inside it, not the page: the agent column stays in view, a shadow
// marks the side with more and a line says so. The region is positioned, so the hidden counts,
// placed absolutely, stay inside its scroll too.
import { useId, useRef, useState, type ReactNode } from "react";
import type { AgentSignalsView } from "@/server/wire/signals";
import { SIGNAL_COLUMNS, nextSort, sortAgents, type SortState } from "./signal-columns";
import { SignalsHeader } from "./signals-header";
import { useScrollEdges } from "./use-scroll-edges";
import type { Explanation } from "./signal-explanations";

/** A column after the figures (the Agents page's trend). */
export type ExtraColumn = {
  id: string;
  label: string;
  explain: Explanation;
  cell: (a: AgentSignalsView) => ReactNode;
};

const sticky = "sticky left-0 z-10";
const cell = "whitespace-nowrap px-2 py-1.5 align-top";

export function AgentSignalsTable({
  agents,
  caption = "Signals per agent",
  extra,
}: {
  agents: AgentSignalsView[];
  caption?: string;
  extra?: ExtraColumn;
}) {
  const [sort, setSort] = useState<SortState>({ column: "agent", dir: "ascending" });
  const [showCounts, setShowCounts] = useState(false);
  const toggleId = useId();
  const hintId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const edges = useScrollEdges(scroller);
  const rows = sortAgents(agents, sort);
  const sorted = SIGNAL_COLUMNS.find((c) => c.id === sort.column);
  // The agent column's right edge casts a shadow once columns have passed under it.
  const stickyEdge = edges.left ? "shadow-[6px_0_6px_-4px_rgba(0,0,0,0.25)]" : "";
  return (
    <div className="space-y-1.5">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
        <label htmlFor={toggleId} className="flex w-fit items-center gap-2">
          <input
            id={toggleId}
            type="checkbox"
            checked={showCounts}
            onChange={(e) => setShowCounts(e.target.checked)}
            className="accent-sky-700"
          />
          Show the counts behind each figure
        </label>
        {(edges.left || edges.right) && (
          <p id={hintId} data-testid="signals-scroll-hint">
            Scroll the table sideways for more columns{edges.right ? " →" : ""}
          </p>
        )}
      </div>
      <div className="relative">
        <div
          ref={scroller}
          role="region"
          aria-label={caption}
          aria-describedby={edges.left || edges.right ? hintId : undefined}
          tabIndex={0}
          className="relative overflow-x-auto rounded-lg border border-zinc-200 focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-zinc-800"
          data-testid="signals-table"
          data-scroll-left={edges.left}
          data-scroll-right={edges.right}
        >
          <table className="min-w-full text-sm tabular-nums">
            <caption className="sr-only">{`${caption}, sorted by ${sorted?.label ?? "agent"} ${sort.dir}`}</caption>
            <SignalsHeader
              sort={sort}
              onSort={(id) => setSort((s) => nextSort(s, id))}
              stickyClass={`${sticky} ${stickyEdge}`}
              extra={extra}
            />
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {rows.map((a) => (
                <tr key={a.agentId} data-testid="signals-row" data-agent={a.agentId}>
                  {SIGNAL_COLUMNS.map((c) =>
                    c.id === "agent" ? (
                      <th
                        key={c.id}
                        scope="row"
                        title={c.title?.(a)}
                        data-col="agent"
                        className={`${cell} ${sticky} ${stickyEdge} max-w-40 truncate bg-white text-left font-medium text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100`}
                      >
                        {c.text(a)}
                      </th>
                    ) : (
                      <td
                        key={c.id}
                        data-col={c.id}
                        title={c.title?.(a)}
                        className={`${cell} bg-white text-right text-zinc-700 dark:bg-zinc-950 dark:text-zinc-300`}
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
                  {extra && (
                    <td data-col={extra.id} className={`${cell} bg-white dark:bg-zinc-950`}>
                      {extra.cell(a)}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {edges.right && (
          <div
            aria-hidden
            className="pointer-events-none absolute inset-y-px right-px w-6 rounded-r-lg bg-gradient-to-l from-zinc-400/40 to-transparent dark:from-black/70"
          />
        )}
      </div>
    </div>
  );
}
