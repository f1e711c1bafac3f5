// A gate's decision in the shape Gemini CLI reads from a hook: `decision` at the top level
// ("deny" blocks the tool and shows the model the reason), `{}` for no opinion (Gemini's own
// approval applies). The door's failures answer the same way (answer-unchecked-call.ts).
import type { ClaudeCodeHookOutput, ToolDecision } from "../wire/hooks";
import type { GatedDoor } from "./answer-unchecked-call";
import type { GateDecision } from "./hook-output";
import { GEMINI_GATED_EVENTS } from "../wire/gemini-hooks";

/**
 * Besides a gate's decision, what a person's steering adds in Gemini's words: context appended
 * to a tool's result or the prompt (`hookSpecificOutput.additionalContext`), an AfterAgent
 * denied with the person's message as the next prompt, or `continue: false` to stop the loop.
 */
export type GeminiHookOutput = {
  decision?: ToolDecision;
  reason?: string;
  continue?: false;
  stopReason?: string;
  hookSpecificOutput?: { additionalContext: string };
};

export const geminiDecision = (d: GateDecision | null): GeminiHookOutput =>
  d ? { decision: d.decision, reason: d.reason } : {};

/** What the Claude Code handler answered, as Gemini CLI reads it. */
export function geminiOutputOf(output: ClaudeCodeHookOutput): GeminiHookOutput {
  const h = output.hookSpecificOutput;
  const out: GeminiHookOutput =
    h?.hookEventName === "PreToolUse"
      ? geminiDecision({ decision: h.permissionDecision, reason: h.permissionDecisionReason })
      : h?.hookEventName === "PermissionRequest"
        ? geminiDecision({ decision: h.decision.behavior, reason: h.decision.message })
        : h
          ? { hookSpecificOutput: { additionalContext: h.additionalContext } }
          : {};
  // AfterAgent (Claude Code's Stop) denied: Gemini sends the reason to the model as its next prompt.
  if (output.decision === "block") Object.assign(out, { decision: "deny", reason: output.reason ?? "" });
  // BeforeAgent wants a reason when it stops; elsewhere the stop's reason is only shown.
  if (output.continue === false)
    Object.assign(out, {
      continue: false,
      stopReason: output.stopReason,
      reason: out.reason ?? output.stopReason,
    });
  return out;
}

export const GEMINI_CLI_DOOR: GatedDoor = {
  eventKey: "hook_event_name",
  gating: GEMINI_GATED_EVENTS,
  output: (_event, d) => geminiDecision(d),
};
