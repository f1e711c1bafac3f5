"use client";
// The inbox's groups: a heading with the group's count over the whole inbox (a button that folds
// the group away), a page of its items, and "Show more" while some are not shown yet.
import type { InboxGroup } from "./inbox-view";
import { MORE } from "./inbox-view";
import { InboxItemCard } from "./inbox-item-card";
import type { useInboxFocus } from "./use-inbox-focus";

type Bind = ReturnType<typeof useInboxFocus>["bind"];

export function InboxGroups({
  groups,
  collapsed,
  toggle,
  more,
  bind,
}: {
  groups: InboxGroup[];
  collapsed: ReadonlySet<string>;
  toggle: (key: string) => void;
  more: (key: string) => void;
  bind: Bind;
}) {
  let index = 0;
  return (
    <div className="space-y-4" data-testid="inbox-list">
      {groups.map((g, i) => {
        const open = !collapsed.has(g.key);
        const headingId = `inbox-group-${i}`;
        const left = g.count - g.items.length;
        return (
          <section key={g.key} aria-labelledby={headingId} data-testid="inbox-group" data-group={g.key}>
            <h2 id={headingId} className="text-sm font-semibold">
              <button
                type="button"
                aria-expanded={open}
                onClick={() => toggle(g.key)}
                className="flex w-full items-center gap-2 rounded-md py-1 text-left hover:bg-zinc-100 dark:hover:bg-zinc-800"
              >
                <span aria-hidden className="w-4 text-zinc-500">
                  {open ? "▾" : "▸"}
                </span>
                <span className="min-w-0 break-words">{g.label}</span>
                <span
                  className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200"
                  data-testid="inbox-group-count"
                >
                  {g.count}
                  <span className="sr-only"> waiting</span>
                </span>
              </button>
            </h2>
            {open && (
              <>
                <ul className="mt-2 space-y-2">
                  {g.items.map((item) => {
                    const key = `${item.podId}/${item.id}`;
                    return (
                      <InboxItemCard
                        key={key}
                        {...bind(key, index++)}
                        podId={item.podId}
                        podName={item.podName}
                        item={item}
                        blockedBy={item.blockedBy}
                        canAct={item.canAct}
                      />
                    );
                  })}
                </ul>
                {left > 0 && (
                  <button
                    type="button"
                    onClick={() => more(g.key)}
                    className="mt-2 rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
                    data-testid="inbox-group-more"
                  >
                    Show {Math.min(MORE, left)} more of {g.label} ({left} not shown)
                  </button>
                )}
              </>
            )}
          </section>
        );
      })}
    </div>
  );
}
