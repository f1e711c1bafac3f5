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
/** What the route answers: `{}` (observed; Claude Code's own permission flow applies), or a decision in Claude Code's shape. */
export type ClaudeCodeHookOutput =
  | Record<string, never>
  | {
      hookSpecificOutput: {
        hookEventName: "PreToolUse";
        permissionDecision: ToolDecision;
        permissionDecisionReason: string;
      };
    }
  | {
      hookSpecificOutput: {
        hookEventName: "PermissionRequest";
        decision: { behavior: ToolDecision; message: string };
      };
    };
