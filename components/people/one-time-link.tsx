"use client";
// An invite or reset link, shown once with a copy button (select-all when the clipboard is refused).
import { useRef, useState } from "react";
import { secondaryButton } from "./form-styles";

export function OneTimeLink({
  url,
  email,
  kind,
  note,
  onDone,
}: {
  url: string;
  email: string;
  kind: "invite" | "reset";
  note: string;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("copied");
    } catch {
      field.current?.select();
      setCopied("failed");
    }
  };
  const what = kind === "invite" ? `Invite link for ${email}` : `Password reset link for ${email}`;
  return (
    <div
      role="region"
      aria-label={what}
      data-testid="one-time-link"
      className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-3 dark:border-emerald-800 dark:bg-emerald-950/40"
    >
      <p className="text-sm font-medium">{what}</p>
      <p className="text-xs text-zinc-700 dark:text-zinc-300">{note} It works once, for 7 days.</p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={field}
          readOnly
          value={url}
          aria-label={what}
          data-testid="one-time-link-url"
          onFocus={(e) => e.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-white px-2 py-1 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-900"
        />
        <button type="button" onClick={copy} className={secondaryButton}>
          Copy link
        </button>
        <button type="button" onClick={onDone} className={secondaryButton}>
          Done
        </button>
      </div>
      <p role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
        {copied === "copied"
          ? "Copied."
          : copied === "failed"
            ? "Could not reach the clipboard: the link is selected, press Ctrl+C (⌘C)."
            : ""}
      </p>
    </div>
  );
}
