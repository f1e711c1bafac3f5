"use client";
// The count in the navigation, on every page; with permission, a browser
// notification (and optionally a short sound) when something new arrives.
import Link from "next/link";
import { useEffect, useRef } from "react";
import { useInbox } from "./use-inbox";
import { useAlertPrefs } from "./alert-prefs";

function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
  } catch {
    /* no audio: nothing to do */
  }
}

export function InboxBadge() {
  const inbox = useInbox();
  const { sound } = useAlertPrefs();
  const seen = useRef<Set<string> | null>(null);
  // Muted items (the person's notification preferences) are neither counted nor announced.
  const items = (inbox.data ?? []).filter((i) => !i.muted);

  useEffect(() => {
    if (!inbox.data) return;
    const unmuted = inbox.data.filter((i) => !i.muted);
    const ids = new Set(unmuted.map((i) => `${i.podId}/${i.id}`));
    const fresh = seen.current ? unmuted.filter((i) => !seen.current!.has(`${i.podId}/${i.id}`)) : [];
    seen.current = ids;
    if (!fresh.length) return;
    if (typeof Notification !== "undefined" && Notification.permission === "granted") {
      new Notification(`podwatch: ${fresh.length} new in your inbox`, {
        body: fresh
          .map((i) => `${i.podName}: ${i.title}`)
          .join("\n")
          .slice(0, 300),
        tag: "podwatch-inbox",
      });
    }
    if (sound) beep();
  }, [inbox.data, sound]);

  return (
    <Link
      href="/inbox"
      // Heard as one phrase, "Inbox, 2 waiting" (the text alone reads "Inbox2"); the space keeps the
      // visible "Inbox 2" inside that name, as axe's label-content-name-mismatch asks.
      aria-label={items.length > 0 ? `Inbox, ${items.length} waiting` : "Inbox"}
      className="relative text-sm text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
    >
      Inbox
      {items.length > 0 && " "}
      {items.length > 0 && (
        <span
          className="rounded-full bg-amber-200 px-1.5 py-0.5 text-[11px] font-semibold text-amber-950 tabular-nums dark:bg-amber-400"
          data-testid="nav-inbox-count"
        >
          {items.length}
        </span>
      )}
    </Link>
  );
}
