"use client";
// A snippet to paste, with a copy button that says whether it copied (or selected the text instead).
// A long file (`whole`) stays folded behind "Show the whole file": its copy button copies all of it.
import { useRef, useState } from "react";

export function Snippet({
  title,
  text,
  testId,
  hint,
  whole = false,
}: {
  title: string;
  text: string;
  testId: string;
  hint?: string;
  whole?: boolean;
}) {
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const pre = useRef<HTMLPreElement>(null);
  const folded = useRef<HTMLDetailsElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("copied");
    } catch {
      // No clipboard (permission, insecure origin): select the text so Ctrl+C copies it.
      if (folded.current) folded.current.open = true;
      const range = document.createRange();
      if (pre.current) range.selectNodeContents(pre.current);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      setCopied("failed");
    }
  };
  const block = (
    <pre
      ref={pre}
      data-testid={testId}
      className="whitespace-pre-wrap break-all rounded-md border border-zinc-200 bg-white p-2 font-mono text-xs dark:border-zinc-800 dark:bg-zinc-900"
    >
      {text}
    </pre>
  );
  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2">
        <span className="text-xs font-medium text-zinc-700 dark:text-zinc-300">{title}</span>
        <button
          onClick={copy}
          aria-label={`Copy ${title.toLowerCase()}`}
          className="ml-auto rounded-md border border-zinc-300 bg-white px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800"
        >
          Copy
        </button>
        <span role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          {copied === "copied" ? "Copied" : copied === "failed" ? "Selected: press Ctrl+C" : ""}
        </span>
      </div>
      {whole ? (
        <details ref={folded}>
          <summary className="cursor-pointer text-xs text-zinc-700 underline dark:text-zinc-300">
            Show the whole file ({text.split("\n").length} lines)
          </summary>
          {block}
        </details>
      ) : (
        block
      )}
      {hint && <p className="text-xs text-zinc-600 dark:text-zinc-400">{hint}</p>}
    </div>
  );
}
