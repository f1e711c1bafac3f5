// Gemini CLI's side of `podwatch hook --agent gemini`. Gemini runs a tool when its hook exits 1,
// prints what is not JSON or times out, so a BeforeTool is always answered with exit 0 and a
// JSON decision (`{"decision":"deny","reason":…}` blocks; `{}` leaves it to Gemini). Token usage
// is read from Gemini's transcript at the end of each turn and of the session.
import { GEMINI_GATED_EVENTS, GEMINI_HOOK_PATH } from "../../server/wire/gemini-hooks";
import { addGeminiUsageLine } from "./gemini-transcript-usage";
import type { HookDialect } from "./hook-dialect";
import { pricedUsage } from "./priced-usage";

export const GEMINI_DIALECT: HookDialect = {
  route: GEMINI_HOOK_PATH,
  gated: GEMINI_GATED_EVENTS,
  spoolFolder: "gemini-cli",
  usageEvents: new Set(["AfterAgent", "SessionEnd"]),
  spoolUsage: pricedUsage(addGeminiUsageLine),
  answer: geminiAnswer,
};

type Decision = { decision: string; reason: string };

/** An answer in Claude Code's shape (the hook's own: a failure, the unreachable rule) as Gemini reads it; Gemini's own passes. */
export function geminiAnswer(output: string): string {
  let o: unknown;
  try {
    o = JSON.parse(output);
  } catch {
    return output;
  }
  const h = (o as { hookSpecificOutput?: Record<string, unknown> } | null)?.hookSpecificOutput;
  if (!h || typeof h !== "object") return output;
  // Gemini's own hookSpecificOutput (a person's message as additionalContext, from the server) passes as it is.
  if (h.permissionDecision === undefined && h.decision === undefined) return output;
  const d: Decision | null =
    typeof h.permissionDecision === "string"
      ? { decision: h.permissionDecision, reason: String(h.permissionDecisionReason ?? "") }
      : h.decision && typeof h.decision === "object"
        ? decisionOf(h.decision as Record<string, unknown>)
        : null;
  return d ? JSON.stringify(d) : "{}";
}

const decisionOf = (d: Record<string, unknown>): Decision | null =>
  typeof d.behavior === "string" ? { decision: d.behavior, reason: String(d.message ?? "") } : null;
