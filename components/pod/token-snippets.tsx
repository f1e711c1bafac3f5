"use client";
// A new agent token, shown this once: ready-to-paste snippets with copy
// buttons. Closing the panel forgets the token; it is never stored here.
import { useEffect, useRef, useState } from "react";
import { mcpSnippet, shellSnippet, type SnippetInput } from "./agent-snippets";

export type RevealedToken = SnippetInput & { memberId: string; heading: string };

export function TokenSnippets({ revealed, onDone }: { revealed: RevealedToken; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves to the panel, so keyboard and screen-reader users land on the token.
  useEffect(() => heading.current?.focus(), [revealed.token]);
  return (
    <section aria-labelledby="token-snippets-title" data-testid="token-snippets" className="space-y-3 rounded-lg border border-emerald-300 bg-emerald-50 p-3 dark:border-emerald-800 dark:bg-emerald-950/40">
      <h3 id="token-snippets-title" ref={heading} tabIndex={-1} className="text-sm font-semibold outline-none">
        {revealed.heading}
      </h3>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        This token for <span className="font-mono">{revealed.memberId}</span> is shown <strong>once</strong>: copy what the agent needs now. podwatch keeps only its hash.
      </p>
      <Snippet title="Token" testId="snippet-token" text={revealed.token} />
      <Snippet title="Shell environment for the CLI" testId="snippet-shell" text={shellSnippet(revealed)} />
      <Snippet title="MCP client config" testId="snippet-mcp" text={mcpSnippet(revealed)} hint={'Without npm link: "command": "node", "args": ["<checkout>/agent/bin/podwatch.mjs", "mcp"].'} />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">The Claude Code hooks config comes with the agent integration.</p>
      <button onClick={onDone} className="rounded-md bg-zinc-900 px-3 py-1 text-sm font-medium text-white dark:bg-zinc-100 dark:text-zinc-900">
        Done, I have stored it
      </button>
    </section>
  );
}

function Snippet({ title, text, testId, hint }: { title: string; text: string; testId: string; hint?: string }) {
  const [copied, setCopied] = useState<"copied" | "failed" | null>(null);
  const pre = useRef<HTMLPreElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("copied");
    } catch {
      // No clipboard (permission, insecure origin): select the text so Ctrl+C copies it.
      const range = document.createRange();
      if (pre.current) range.selectNodeContents(pre.current);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      setCopied("failed");
    }
  };
  return (
    <div className="space-y-1">
      <div className="flex items-center gap-2">
        <span className="text-xs font-medium text-zinc-700 dark:text-zinc-300">{title}</span>
        <button onClick={copy} aria-label={`Copy ${title.toLowerCase()}`} className="ml-auto rounded-md border border-zinc-300 bg-white px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800">
          Copy
        </button>
        <span role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          {copied === "copied" ? "Copied" : copied === "failed" ? "Selected: press Ctrl+C" : ""}
        </span>
      </div>
      <pre ref={pre} data-testid={testId} className="whitespace-pre-wrap break-all rounded-md border border-zinc-200 bg-white p-2 font-mono text-xs dark:border-zinc-800 dark:bg-zinc-900">
        {text}
      </pre>
      {hint && <p className="text-xs text-zinc-600 dark:text-zinc-400">{hint}</p>}
    </div>
  );
}
