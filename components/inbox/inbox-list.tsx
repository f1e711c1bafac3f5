"use client";
// The inbox across pods, in groups (by pod, agent or kind), filtered and searched as the URL's
// query says (use-inbox-filters.ts), a page per group (inbox-view.ts). Keyboard: j/k move over
// the shown items (the first j selects the first), a approve/accept, r reject (on the focused
// item), and focus moves on to the next item after an action; "?" (global) shows the keys.
import { useMemo, useState, useSyncExternalStore } from "react";
import { useInbox } from "./use-inbox";
import { useInboxFocus } from "./use-inbox-focus";
import { useAlertPrefs } from "./alert-prefs";
import { useInboxFilters } from "./use-inbox-filters";
import { MORE, PAGE, shapeInbox } from "./inbox-view";
import { InboxFilterBar } from "./inbox-filters";
import { InboxGroups } from "./inbox-groups";
import { Empty, Skeleton } from "../shared/ui";

export function InboxList() {
  const inbox = useInbox();
  const { filters, setFilters } = useInboxFilters();
  const [shown, setShown] = useState<Record<string, number>>({});
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const view = useMemo(() => shapeInbox(inbox.data ?? [], filters, shown), [inbox.data, filters, shown]);
  const keys = view.groups.flatMap((g) =>
    collapsed.has(g.key) ? [] : g.items.map((i) => `${i.podId}/${i.id}`),
  );
  const { bind } = useInboxFocus(keys);
  const filtered = !!(filters.pod || filters.agent || filters.kind || filters.q);
  const [clears, setClears] = useState(0);
  const clear = () => {
    setFilters({ pod: undefined, agent: undefined, kind: undefined, q: undefined });
    setClears((n) => n + 1);
  };
  const toggle = (key: string) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  return (
    <div className="space-y-4">
      <AlertSettings />
      {inbox.isPending ? (
        <Skeleton label="Loading the inbox" className="h-24 rounded-lg" />
      ) : inbox.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {inbox.error.message}.{" "}
          <button className="underline" onClick={() => inbox.refetch()}>
            Try again
          </button>
        </p>
      ) : (
        <>
          {/* A new bar after "Clear filters": its search box starts from the (now empty) URL again. */}
          <InboxFilterBar key={clears} filters={filters} view={view} onChange={setFilters} />
          <p className="text-xs text-zinc-600 dark:text-zinc-400" role="status" data-testid="inbox-summary">
            {filtered ? `${view.matched} of ${view.total} match` : `${view.total} waiting`}
            {filtered && (
              <>
                {" · "}
                <button type="button" className="underline" onClick={clear}>
                  Clear filters
                </button>
              </>
            )}
            {view.muted > 0 && (
              <>
                {" · "}
                <button
                  type="button"
                  className="underline"
                  aria-pressed={filters.muted}
                  onClick={() => setFilters({ muted: !filters.muted })}
                  data-testid="toggle-muted"
                >
                  {filters.muted ? `Hide ${view.muted} muted` : `Show ${view.muted} muted`}
                </button>{" "}
                (pods you chose to hear less from on{" "}
                <a href="/notifications" className="underline">
                  Notifications
                </a>
                )
              </>
            )}
          </p>
          {view.total === 0 ? (
            <Empty>
              Nothing waits for you. Escalations, held tool calls, work to approve and deliveries to accept
              show up here as agents ask.
            </Empty>
          ) : view.matched === 0 ? (
            <Empty>
              No item matches these filters.{" "}
              <button type="button" className="underline" onClick={clear}>
                Clear filters
              </button>{" "}
              to see all {view.total}.
            </Empty>
          ) : (
            <InboxGroups
              groups={view.groups}
              collapsed={collapsed}
              toggle={toggle}
              more={(key) => setShown((s) => ({ ...s, [key]: (s[key] ?? PAGE) + MORE }))}
              bind={bind}
            />
          )}
        </>
      )}
    </div>
  );
}

const noSubscription = () => () => {};
const browserPermission = () =>
  typeof Notification === "undefined" ? "unsupported" : Notification.permission;

function AlertSettings() {
  const { sound, setSound } = useAlertPrefs();
  // The browser's permission (the server renders "unsupported"), or its answer once we asked.
  const current = useSyncExternalStore(noSubscription, browserPermission, () => "unsupported");
  const [answered, setAnswered] = useState<string | null>(null);
  const permission = answered ?? current;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400">
      {permission === "default" && (
        <button
          onClick={async () => setAnswered(await Notification.requestPermission())}
          className="rounded-md border border-zinc-300 px-2 py-1 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Notify me of new items
        </button>
      )}
      {permission === "granted" && <span>Browser notifications on</span>}
      <label className="flex items-center gap-1.5">
        <input
          type="checkbox"
          className="accent-zinc-700 dark:accent-zinc-300"
          checked={sound}
          onChange={(e) => setSound(e.target.checked)}
        />{" "}
        Sound
      </label>
      <span className="ml-auto text-xs">
        Press <kbd>?</kbd> for keys
      </span>
    </div>
  );
}
