// A gate's decision in the shape Claude Code reads from a hook.
import type { ClaudeCodeHookOutput, ToolDecision } from "../wire/hooks";

export type GateDecision = { decision: ToolDecision; reason: string };

export function decisionOutput(
  event: "PreToolUse" | "PermissionRequest",
  d: GateDecision | null,
): ClaudeCodeHookOutput {
  if (!d) return {};
  return event === "PreToolUse"
    ? {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: d.decision,
          permissionDecisionReason: d.reason,
        },
      }
    : {
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: d.decision, message: d.reason },
        },
      };
}
