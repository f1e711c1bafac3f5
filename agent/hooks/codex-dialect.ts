// What `podwatch hook --agent codex` does differently from Claude Code's command hook: it posts
// to Codex's door, keeps its own spool (a replay goes back to the door it came for), and reads
// usage from Codex's session log. Codex reads the same answers (a deny JSON with exit 0 blocks),
// and like Claude Code it runs a tool when a hook exits 1, prints no JSON or times out: run-hook
// answers every gated call it cannot decide with the unreachable rule's JSON, never a bare exit.
import { codexCostOf, countCodexLine } from "./codex-usage";
import type { HookDialect } from "./hook-dialect";
import { pricedUsage } from "./priced-usage";
import { USAGE_EVENTS } from "./report-usage";
import { GATED_EVENTS } from "./unreachable-rule";

export const CODEX_HOOK_ROUTE = "/api/v1/hooks/codex";

export const CODEX_DIALECT: HookDialect = {
  route: CODEX_HOOK_ROUTE,
  gated: GATED_EVENTS,
  spoolFolder: "codex",
  usageEvents: USAGE_EVENTS,
  spoolUsage: pricedUsage(countCodexLine, codexCostOf),
  answer: (output) => output,
};
