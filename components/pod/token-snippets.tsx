"use client";
// A new agent token, shown this once: the token, then a tab per way to connect with what one
// pastes and copy buttons. Closing the panel forgets the token; it is never stored here.
import { useEffect, useRef } from "react";
import { Snippet } from "./copy-snippet";
import type { SnippetInput } from "./agent-snippets";
import { ConnectSnippets } from "./connect-snippets";

export type RevealedToken = SnippetInput & { memberId: string; heading: string };

export function TokenSnippets({ revealed, onDone }: { revealed: RevealedToken; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves to the panel, so keyboard and screen-reader users land on the token.
  useEffect(() => heading.current?.focus(), [revealed.token]);
  return (
    <section
      aria-labelledby="token-snippets-title"
      data-testid="token-snippets"
      className="space-y-3 rounded-lg border border-emerald-300 bg-emerald-50 p-3 dark:border-emerald-800 dark:bg-emerald-950/40"
    >
      <h3
        id="token-snippets-title"
        ref={heading}
        tabIndex={-1}
        className="text-sm font-semibold outline-none"
      >
        {revealed.heading}
      </h3>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        This token for <span className="font-mono">{revealed.memberId}</span> is shown <strong>once</strong>:
        copy what the agent needs now. podwatch keeps only its hash.
      </p>
      <Snippet title="Token" testId="snippet-token" text={revealed.token} />
      <ConnectSnippets input={revealed} />
      <button
        onClick={onDone}
        className="rounded-md bg-zinc-900 px-3 py-1 text-sm font-medium text-white dark:bg-zinc-100 dark:text-zinc-900"
      >
        Done, I have stored it
      </button>
    </section>
  );
}
