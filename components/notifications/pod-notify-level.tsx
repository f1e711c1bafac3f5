"use client";
// On the pod page: what this pod sends the signed-in person (Everything /
// Decisions only / Nothing), changed in place through the Notifications page's
// own server action; the rest of their settings is one link away.
import Link from "next/link";
import { useId, useState, useTransition } from "react";
import { saveNotificationPreferences } from "@/server/web/server-actions";
import type { NotifyLevel } from "@/server/wire/notifications";
import { LEVELS } from "./levels";

export function PodNotifyLevel({ podId, initial }: { podId: string; initial: NotifyLevel }) {
  const id = useId();
  const [level, setLevel] = useState(initial);
  const [pending, start] = useTransition();
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  const change = (next: NotifyLevel) => {
    const before = level;
    setLevel(next);
    setStatus(null);
    start(async () => {
      const r = await saveNotificationPreferences({ pods: [{ podId, level: next }] });
      if (!r.ok) {
        setLevel(before);
        return setStatus({ ok: false, text: r.error });
      }
      setStatus({ ok: true, text: "Saved." });
    });
  };

  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="pod-notify-level">
      <label htmlFor={id} className="text-zinc-600 dark:text-zinc-400">
        Notifications<span className="sr-only"> from this pod</span>
      </label>
      <select
        id={id}
        value={level}
        disabled={pending}
        aria-describedby={`${id}-status`}
        onChange={(e) => change(e.target.value as NotifyLevel)}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-950"
      >
        {LEVELS.map((l) => (
          <option key={l.value} value={l.value}>
            {l.label}
          </option>
        ))}
      </select>
      <Link
        href={`/notifications#pod-${podId}`}
        className="text-xs text-zinc-600 underline hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
      >
        Push, quiet hours…
      </Link>
      <span
        id={`${id}-status`}
        role="status"
        className={`text-xs ${status?.ok === false ? "text-red-700 dark:text-red-400" : "text-emerald-800 dark:text-emerald-400"}`}
      >
        {pending ? "Saving…" : status?.text}
      </span>
    </div>
  );
}
