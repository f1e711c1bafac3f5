// Claude Code's http hooks, over the API. Declared here for the OpenAPI document and the reference;
// served by server/http/hook-routes.ts (`handwritten`): a gated call must get a decision whatever
// fails (the door answers by the pod's unreachable rule, never with an error Claude Code would run
// the tool on), and a held call ends when its caller hangs up. The generic door does neither.
import { z } from "zod";
import { defineOperation } from "../operations/operation";
import { HOOK_BODY_MAX_BYTES, ZHookQuery, type ClaudeCodeHookOutput } from "../wire/hooks";

const ZDecision = z.enum(["allow", "deny"]);
/** `{}` when observed (Claude Code's own permission flow applies); a gate's decision; what a person's steering adds. */
export const ZHookOutput = z
  .object({
    continue: z.literal(false).optional().describe("a person interrupted: the turn ends here"),
    stopReason: z.string().optional(),
    decision: z.literal("block").optional().describe("Stop: the person's message is the reason to go on"),
    reason: z.string().optional(),
    hookSpecificOutput: z
      .union([
        z.object({
          hookEventName: z.literal("PreToolUse"),
          permissionDecision: ZDecision,
          permissionDecisionReason: z.string(),
        }),
        z.object({
          hookEventName: z.literal("PermissionRequest"),
          decision: z.object({
            behavior: ZDecision,
            message: z.string(),
            interrupt: z.literal(true).optional(),
          }),
        }),
        z.object({
          hookEventName: z.enum(["UserPromptSubmit", "PostToolUse", "PostToolUseFailure"]),
          additionalContext: z.string().describe("a person's message, added for the model"),
        }),
      ])
      .optional(),
  })
  .strict() satisfies z.ZodType<ClaudeCodeHookOutput>;

/** One agent's hook door as an operation: its hook input in, its answers out, a gated call always answered 200. */
export function hookDoorOperation<Name extends string, Out extends z.ZodType>(d: {
  name: Name;
  summary: string;
  /** What the agent's hook input holds, for the reference. */
  inputFields: string;
  output: Out;
  path: `/api/v1/${string}`;
}) {
  return defineOperation({
    name: d.name,
    summary: d.summary,
    tag: "Hooks",
    input: z.object({
      ...ZHookQuery.shape,
      input: z
        .record(z.string(), z.unknown())
        .describe(`${d.inputFields}; up to ${HOOK_BODY_MAX_BYTES} bytes)`),
    }),
    output: d.output,
    guard: "agent",
    http: {
      method: "POST",
      path: d.path,
      status: 200,
      body: "input",
      query: ["wait", "replay"],
      handwritten: true,
    },
  });
}

export const hookOperations = {
  claudeCodeHook: hookDoorOperation({
    name: "claudeCodeHook",
    summary:
      "Claude Code's hook input, as it sends it, from the agent whose token it is (the token names the pod and " +
      "the member). Observations answer `{}`. A gated call (PreToolUse, PermissionRequest) is held for the " +
      "pod's rules or a person's answer, up to `wait` seconds, and always answers 200 with a decision: what " +
      "fails before one is made answers by the pod's unreachable rule (named in `x-podwatch-unreachable`). " +
      "A Stop may be held too, up to the agent's `idleHold` seconds, for a person's Resume (`session.idle.held`); " +
      "it answers the block that carries the agent on, or `{}` to let it stop. " +
      "A replay from a command hook's spool (`replay=1`) is recorded, never gated, and keeps its errors.",
    inputFields: "Claude Code's hook input (hook_event_name, session_id, tool_name, …",
    output: ZHookOutput,
    path: "/api/v1/hooks/claude-code",
  }),
};
