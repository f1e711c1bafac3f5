"use client";
// The inbox across pods, oldest first. Keyboard: j/k move, a approve/accept,
// r reject (on the focused item); "?" (global) shows the keys.
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useInbox } from "./use-inbox";
import { InboxItemCard } from "./inbox-item-card";
import { useAlertPrefs } from "./alert-prefs";
import { Empty } from "../shared/ui";

export function InboxList() {
  const inbox = useInbox();
  const [focus, setFocus] = useState(0);
  const refs = useRef<(HTMLLIElement | null)[]>([]);
  const items = inbox.data ?? [];

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.target as HTMLElement).tagName === "INPUT" || e.metaKey || e.ctrlKey) return;
      if (e.key === "j" || e.key === "k") {
        setFocus((f) => {
          const next = Math.max(0, Math.min(items.length - 1, f + (e.key === "j" ? 1 : -1)));
          refs.current[next]?.focus();
          return next;
        });
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [items.length]);

  return (
    <div className="space-y-4">
      <AlertSettings />
      {inbox.isPending ? (
        <div className="h-24 animate-pulse rounded-lg bg-zinc-200/70 dark:bg-zinc-800/70" aria-label="Loading the inbox" />
      ) : inbox.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">{inbox.error.message}. <button className="underline" onClick={() => inbox.refetch()}>Try again</button></p>
      ) : items.length === 0 ? (
        <Empty>Nothing waits for you. Escalations, work to approve and deliveries to accept show up here.</Empty>
      ) : (
        <ul className="space-y-2" data-testid="inbox-list">
          {items.map((item, i) => (
            <InboxItemCard
              key={`${item.podId}/${item.id}`}
              ref={(el) => void (refs.current[i] = el)}
              podId={item.podId}
              podName={item.podName}
              item={item}
              blockedBy={item.blockedBy}
              canAct={item.canAct}
              focused={i === focus}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

const noSubscription = () => () => {};
const browserPermission = () => (typeof Notification === "undefined" ? "unsupported" : Notification.permission);

function AlertSettings() {
  const { sound, setSound } = useAlertPrefs();
  // The browser's permission (the server renders "unsupported"), or its answer once we asked.
  const current = useSyncExternalStore(noSubscription, browserPermission, () => "unsupported");
  const [answered, setAnswered] = useState<string | null>(null);
  const permission = answered ?? current;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400">
      {permission === "default" && (
        <button onClick={async () => setAnswered(await Notification.requestPermission())} className="rounded-md border border-zinc-300 px-2 py-1 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800">
          Notify me of new items
        </button>
      )}
      {permission === "granted" && <span>Browser notifications on</span>}
      <label className="flex items-center gap-1.5">
        <input type="checkbox" checked={sound} onChange={(e) => setSound(e.target.checked)} /> Sound
      </label>
      <span className="ml-auto text-xs">Press <kbd>?</kbd> for keys</span>
    </div>
  );
}
