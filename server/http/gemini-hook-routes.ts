// Gemini CLI's command hook (`podwatch hook --agent gemini`) posts here: the same door as Claude
// Code's (hook-routes.ts), with Gemini's events put in Claude Code's shape and the answers given
// back in Gemini's. Gemini runs the tool when a hook fails, so a BeforeTool that fails before its
// decision is answered by the pod's unreachable rule.
import { claudeShapeOfGemini } from "../hooks/gemini-hook-input";
import { GEMINI_CLI_DOOR, geminiOutputOf } from "../hooks/gemini-hook-output";
import { GEMINI_HOOK_PATH } from "../wire/gemini-hooks";
import { hookRoute } from "./hook-routes";
import type { Route } from "./route";

export const geminiHookRoutes: Route[] = [
  hookRoute({
    path: new RegExp(`^${GEMINI_HOOK_PATH.replaceAll("/", "\\/")}$`),
    agent: "gemini-cli",
    door: GEMINI_CLI_DOOR,
    normalise: claudeShapeOfGemini,
    answer: geminiOutputOf,
  }),
];
