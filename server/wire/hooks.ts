// POST /api/v1/hooks/claude-code: Claude Code's hook input in, its hook output out.
import { z } from "zod";

/** A hook body may carry a large tool response (a Read of a big file); only summaries are kept. */
export const HOOK_BODY_MAX_BYTES = 2 * 1024 * 1024;
/** The agent's effective rule for when podwatch cannot be reached: "open" (allow) or "closed" (deny). */
export const UNREACHABLE_HEADER = "x-podwatch-unreachable";
export const HOOK_WAIT_SECONDS = { default: 540, max: 3600 } as const;

/** `wait`: the longest the server may hold a gated call, in seconds; `replay=1`: replayed from a spool, recorded, never gated. */
export const ZHookQuery = z.object({
  wait: z.coerce.number().int().min(1).max(HOOK_WAIT_SECONDS.max).default(HOOK_WAIT_SECONDS.default),
  replay: z.enum(["0", "1"]).default("0"),
});

export type ToolDecision = "allow" | "deny";
/** The hook events whose answer may add context for the model (a person's message, steering). */
export type ContextHookEvent = "UserPromptSubmit" | "PostToolUse" | "PostToolUseFailure";
/**
 * What the route answers, in Claude Code's shape: `{}` (observed; Claude Code's own permission
 * flow applies), a gate's decision, and what a person's steering adds: context for the model, a
 * Stop blocked with the person's message as the reason to go on, or `continue: false` to end the turn.
 */
export type ClaudeCodeHookOutput = {
  continue?: false;
  stopReason?: string;
  decision?: "block";
  reason?: string;
  hookSpecificOutput?:
    | { hookEventName: "PreToolUse"; permissionDecision: ToolDecision; permissionDecisionReason: string }
    | {
        hookEventName: "PermissionRequest";
        decision: { behavior: ToolDecision; message: string; interrupt?: true };
      }
    | { hookEventName: ContextHookEvent; additionalContext: string };
};
