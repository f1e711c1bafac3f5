"use client";
// The inbox across pods, oldest first. Keyboard: j/k move (the first j selects
// the first item), a approve/accept, r reject (on the focused item), and focus
// moves on to the next item after an action; "?" (global) shows the keys.
import { useState, useSyncExternalStore } from "react";
import { useInbox } from "./use-inbox";
import { InboxItemCard } from "./inbox-item-card";
import { useInboxFocus } from "./use-inbox-focus";
import { useAlertPrefs } from "./alert-prefs";
import { Empty, Skeleton } from "../shared/ui";

export function InboxList() {
  const inbox = useInbox();
  const [showMuted, setShowMuted] = useState(false);
  // Items of pods the person muted (Notifications page) stay out of the default view, one click away.
  const all = inbox.data ?? [];
  const muted = all.filter((i) => i.muted).length;
  const items = showMuted ? all : all.filter((i) => !i.muted);
  const { bind } = useInboxFocus(items.map((i) => `${i.podId}/${i.id}`));

  return (
    <div className="space-y-4">
      <AlertSettings />
      {muted > 0 && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          <button
            type="button"
            className="underline"
            aria-pressed={showMuted}
            onClick={() => setShowMuted((v) => !v)}
            data-testid="toggle-muted"
          >
            {showMuted ? `Hide ${muted} muted` : `Show ${muted} muted`}
          </button>{" "}
          (pods you chose to hear less from on{" "}
          <a href="/notifications" className="underline">
            Notifications
          </a>
          )
        </p>
      )}
      {inbox.isPending ? (
        <Skeleton label="Loading the inbox" className="h-24 rounded-lg" />
      ) : inbox.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {inbox.error.message}.{" "}
          <button className="underline" onClick={() => inbox.refetch()}>
            Try again
          </button>
        </p>
      ) : items.length === 0 ? (
        <Empty>
          Nothing waits for you. Escalations, work to approve and deliveries to accept show up here.
        </Empty>
      ) : (
        <ul className="space-y-2" data-testid="inbox-list">
          {items.map((item, i) => {
            const key = `${item.podId}/${item.id}`;
            return (
              <InboxItemCard
                key={key}
                {...bind(key, i)}
                podId={item.podId}
                podName={item.podName}
                item={item}
                blockedBy={item.blockedBy}
                canAct={item.canAct}
              />
            );
          })}
        </ul>
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
