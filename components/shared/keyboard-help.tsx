"use client";
// "?" anywhere shows the keys of the page you are on; Escape closes it.
import { useEffect, useState } from "react";

const KEYS: [string, string][] = [
  ["?", "show or hide this help"],
  ["j / k", "tape: next / previous event · inbox: next / previous item · now: next / previous session"],
  ["↓ ↑ Enter", "now (on a session): next / previous session, open its pod"],
  ["a", "inbox: approve or accept the focused item"],
  ["r", "inbox: reject the focused item (a delivery asks to confirm first)"],
  ["← → Home End", "pod tabs (when a tab has focus): the previous, next, first, last view"],
  ["Esc", "close this help"],
];

export function KeyboardHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const tag = (e.target as HTMLElement).tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || e.metaKey || e.ctrlKey) return;
      if (e.key === "?") setOpen((o) => !o);
      if (e.key === "Escape") setOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  if (!open) return null;
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label="Keyboard shortcuts"
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/30 p-4"
      onClick={() => setOpen(false)}
    >
      <div
        className="w-full max-w-md space-y-3 rounded-lg border border-zinc-200 bg-white p-4 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 className="font-semibold">Keyboard</h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {KEYS.map(([k, v]) => (
            <div key={k} className="contents">
              <dt>
                <kbd className="rounded border border-zinc-300 px-1.5 font-mono text-xs dark:border-zinc-700">
                  {k}
                </kbd>
              </dt>
              <dd className="text-zinc-600 dark:text-zinc-400">{v}</dd>
            </div>
          ))}
        </dl>
        <button
          onClick={() => setOpen(false)}
          className="rounded-md border border-zinc-300 px-3 py-1 text-sm dark:border-zinc-700"
        >
          Close
        </button>
      </div>
    </div>
  );
}
