// A gate's decision in the shape Gemini CLI reads from a hook: `decision` at the top level
// ("deny" blocks the tool and shows the model the reason), `{}` for no opinion (Gemini's own
// approval applies). The door's failures answer the same way (answer-unchecked-call.ts).
import type { ClaudeCodeHookOutput, ToolDecision } from "../wire/hooks";
import type { GatedDoor } from "./answer-unchecked-call";
import type { GateDecision } from "./hook-output";
import { GEMINI_GATED_EVENTS } from "../wire/gemini-hooks";

export type GeminiHookOutput = Record<string, never> | { decision: ToolDecision; reason: string };

export const geminiDecision = (d: GateDecision | null): GeminiHookOutput =>
  d ? { decision: d.decision, reason: d.reason } : {};

/** What the Claude Code handler answered, as Gemini CLI reads it. */
export function geminiOutputOf(output: ClaudeCodeHookOutput): GeminiHookOutput {
  if (!("hookSpecificOutput" in output)) return {};
  const h = output.hookSpecificOutput;
  return h.hookEventName === "PreToolUse"
    ? geminiDecision({ decision: h.permissionDecision, reason: h.permissionDecisionReason })
    : geminiDecision({ decision: h.decision.behavior, reason: h.decision.message });
}

export const GEMINI_CLI_DOOR: GatedDoor = {
  eventKey: "hook_event_name",
  gating: GEMINI_GATED_EVENTS,
  output: (_event, d) => geminiDecision(d),
};
