"use client";
// One group of the board (a state's column, an assignee's or a milestone's tasks): a header that
// collapses it and says how many tasks it holds, and its cards a page at a time.
import { useId, useState, type ReactNode } from "react";
import type { BoardGroup, BoardTask } from "./board-model";

/** Cards a group shows before "Show more": a page a person reads, whatever the plan's size. */
export const PAGE = 10;

export function BoardGroupView({
  group,
  collapsed,
  onToggle,
  linked,
  card,
}: {
  group: BoardGroup;
  collapsed: boolean;
  onToggle: () => void;
  /** A task the address links to (?task=): its card is shown even past the page or collapsed. */
  linked: string | null;
  card: (task: BoardTask) => ReactNode;
}) {
  const [limit, setLimit] = useState(PAGE);
  const listId = useId();
  const { tasks, pinned } = group;
  const shown = collapsed ? [] : pinned ? tasks : tasks.slice(0, limit);
  const extra =
    linked && !shown.some((t) => t.taskId === linked) ? tasks.find((t) => t.taskId === linked) : undefined;
  const rest = collapsed ? 0 : tasks.length - shown.length - (extra ? 1 : 0);
  return (
    <div
      className={`min-w-0 space-y-2 rounded-lg p-2 ${pinned ? "col-span-full bg-amber-50 dark:bg-amber-950/30" : "bg-zinc-100/70 dark:bg-zinc-900/60"}`}
      data-testid="board-column"
      data-column={group.title}
      data-pinned={pinned || undefined}
    >
      <h3 className="text-xs font-semibold tracking-wide text-zinc-700 uppercase dark:text-zinc-300">
        <button
          type="button"
          onClick={onToggle}
          aria-expanded={!collapsed}
          aria-controls={listId}
          className="flex w-full items-center justify-between gap-2 rounded px-1 py-0.5 text-left uppercase hover:bg-zinc-200/70 dark:hover:bg-zinc-800"
        >
          <span className="min-w-0 break-words">{group.title}</span>
          <span className="flex shrink-0 items-center gap-1.5">
            <span className="tabular-nums">{tasks.length.toLocaleString("en")}</span>
            <span aria-hidden="true">{collapsed ? "▸" : "▾"}</span>
          </span>
        </button>
      </h3>
      <div id={listId} className={pinned ? "grid gap-2 md:grid-cols-2 xl:grid-cols-4" : "space-y-2"}>
        {shown.map(card)}
        {extra && card(extra)}
      </div>
      {rest > 0 && (
        <button
          type="button"
          onClick={() => setLimit((l) => l + PAGE)}
          className="w-full rounded-md py-1.5 text-xs text-zinc-600 hover:bg-zinc-200/70 dark:text-zinc-400 dark:hover:bg-zinc-800"
        >
          Show {Math.min(PAGE, rest)} more ({rest.toLocaleString("en")} not shown)
        </button>
      )}
    </div>
  );
}
