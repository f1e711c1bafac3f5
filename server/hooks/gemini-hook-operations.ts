// Gemini CLI's hooks, over the API. Declared here for the OpenAPI document and the reference;
// served by server/http/gemini-hook-routes.ts (`handwritten`), for the reasons of the Claude Code
// door (hook-operations.ts): a gated call gets a decision whatever fails, a held call ends when
// its caller hangs up.
import { z } from "zod";
import { GEMINI_HOOK_PATH } from "../wire/gemini-hooks";
import { hookDoorOperation } from "./hook-operations";
import type { GeminiHookOutput } from "./gemini-hook-output";

/** `{}` when observed (Gemini CLI's own approval applies); a gate's decision; what a person's steering adds. */
const ZGeminiHookOutput = z
  .object({
    decision: z.enum(["allow", "deny"]).optional(),
    reason: z.string().optional(),
    continue: z.literal(false).optional().describe("a person interrupted: the agent loop stops"),
    stopReason: z.string().optional(),
    hookSpecificOutput: z
      .object({ additionalContext: z.string().describe("a person's message, added for the model") })
      .optional(),
  })
  .strict() satisfies z.ZodType<GeminiHookOutput>;

export const geminiHookOperations = {
  geminiCliHook: hookDoorOperation({
    name: "geminiCliHook",
    summary:
      "Gemini CLI's hook input, as `podwatch hook --agent gemini` sends it, from the agent whose token it is. " +
      "Its events are recorded as Claude Code's are (BeforeTool and AfterTool as a tool call, BeforeAgent as the " +
      "prompt, AfterAgent as the turn's report, SessionStart and SessionEnd, Notification); others answer `{}`. " +
      "A BeforeTool is gated by the pod's rules or a person's answer, up to `wait` seconds, and always answers " +
      "200 with a decision (`deny` blocks the tool): what fails before one is made answers by the pod's " +
      "unreachable rule (named in `x-podwatch-unreachable`). A replay from the hook's spool (`replay=1`) is " +
      "recorded, never gated.",
    inputFields: "Gemini CLI's hook input (hook_event_name, session_id, tool_name, tool_input, …",
    output: ZGeminiHookOutput,
    path: GEMINI_HOOK_PATH,
  }),
};
