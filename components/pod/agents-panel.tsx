"use client";
// The agents of the pod, each once with their roles; for the pod's admins also adding an agent (its
// first token shown once) and each agent's tokens with new, revoke and rotate.
import { useState } from "react";
import type { PodStateView } from "@/server/wire/views";
import { Badge, Empty, Section } from "../shared/ui";
import { AddAgentForm } from "./add-agent-form";
import { AgentTokensList } from "./agent-tokens-list";
import { TokenSnippets, type RevealedToken } from "./token-snippets";
import { useAgentTokens } from "./use-agent-tokens";

export function AgentsPanel({
  podId,
  state,
  publicUrl,
  canAdmin,
}: {
  podId: string;
  state: PodStateView;
  publicUrl: string;
  canAdmin: boolean;
}) {
  // The one place a new token lives: leaving this view (or "Done") forgets it.
  const [revealed, setRevealed] = useState<RevealedToken | null>(null);
  const tokens = useAgentTokens(podId, state.seq, canAdmin);
  const agents = state.members.filter((m) => m.kind === "agent");
  const reveal = (t: Omit<RevealedToken, "publicUrl" | "podId">) => setRevealed({ ...t, publicUrl, podId });
  return (
    <Section
      title={canAdmin ? "Agents and tokens" : "Agents"}
      aside={state.activeAgent && <Badge tone="green">active: {state.activeAgent}</Badge>}
    >
      <div className="space-y-3" data-testid="agents-panel">
        {revealed && <TokenSnippets revealed={revealed} onDone={() => setRevealed(null)} />}
        {canAdmin && <AddAgentForm podId={podId} publicUrl={publicUrl} onAdded={setRevealed} />}
        {canAdmin && tokens.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            Could not load the tokens: {tokens.error.message}
          </p>
        ) : agents.length === 0 ? (
          <Empty>No agents yet{canAdmin ? ": add one above and give it the snippet" : ""}.</Empty>
        ) : (
          <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
            {agents.map((a) => (
              <li
                key={a.memberId}
                data-testid="agent"
                data-member-id={a.memberId}
                className="space-y-1 px-3 py-2"
              >
                <p className="flex flex-wrap items-baseline gap-2 text-sm">
                  <span className="font-medium">{a.displayName}</span>
                  <span className="break-all font-mono text-xs text-zinc-600 dark:text-zinc-400">
                    {a.memberId}
                  </span>
                  {a.roles.map((r) => (
                    <Badge key={r} tone="sky">
                      {r.replace("_", " ")}
                    </Badge>
                  ))}
                  {state.activeAgent === a.memberId && <Badge tone="green">active</Badge>}
                </p>
                {!canAdmin ? null : tokens.isPending ? (
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">Loading tokens…</p>
                ) : (
                  <AgentTokensList
                    podId={podId}
                    memberId={a.memberId}
                    tokens={(tokens.data ?? []).filter((t) => t.memberId === a.memberId)}
                    onToken={reveal}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}
