// One Gemini CLI hook call: its input put in Claude Code's shape (gemini-hook-input.ts), recorded
// and gated by the one handler as gemini-cli's, and the answer given back in Gemini's shape.
import type { AppContext } from "../app-context";
import type { HookCaller } from "./append-hook-events";
import type { HoldOptions } from "./gate-tool-call";
import { handleClaudeCodeHook } from "./handle-claude-code-hook";
import { claudeShapeOfGemini } from "./gemini-hook-input";
import { geminiOutputOf, type GeminiHookOutput } from "./gemini-hook-output";

export type GeminiHookAnswer = { output: GeminiHookOutput; unreachable: "open" | "closed" } | "aborted";

export async function handleGeminiHook(
  app: AppContext,
  who: HookCaller,
  body: unknown,
  o: HoldOptions & { replay: boolean },
): Promise<GeminiHookAnswer> {
  const answer = await handleClaudeCodeHook(app, who, claudeShapeOfGemini(body), {
    ...o,
    agent: "gemini-cli",
  });
  return answer === "aborted"
    ? answer
    : { output: geminiOutputOf(answer.output), unreachable: answer.unreachable };
}
