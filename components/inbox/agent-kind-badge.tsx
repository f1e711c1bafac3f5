// Which agent program holds a call (Claude Code, Codex, Gemini CLI), on its inbox card: one inbox
// answers every vendor's gated calls, and the tool's name is in that agent's own words. A screen
// reader hears "Agent program: Codex".
import type { AgentKind } from "@/server/wire/vocabulary";

export const AGENT_KIND_LABELS: Record<AgentKind, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  "gemini-cli": "Gemini CLI",
};

const badge =
  "mr-1 inline-block rounded-md border border-sky-300 bg-sky-50 px-1.5 py-0.5 text-xs font-medium " +
  "text-sky-900 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-200";

export function AgentKindBadge({ kind }: { kind: AgentKind }) {
  return (
    <span className={badge} data-testid="held-call-agent-kind" data-agent-kind={kind}>
      <span className="sr-only">Agent program: </span>
      {AGENT_KIND_LABELS[kind]}
    </span>
  );
}
