// Gemini CLI's command hook (`podwatch hook --agent gemini`) posts here: the same door as Claude
// Code's (hook-routes.ts), with Gemini's events and answers. Gemini runs the tool when a hook
// fails, so a BeforeTool that fails before its decision is answered by the pod's unreachable rule.
import { handleGeminiHook } from "../hooks/handle-gemini-hook";
import { GEMINI_CLI_DOOR } from "../hooks/gemini-hook-output";
import { GEMINI_HOOK_PATH } from "../wire/gemini-hooks";
import { agentHookRoute } from "./hook-routes";
import type { Route } from "./route";

export const geminiHookRoutes: Route[] = [
  agentHookRoute({
    path: new RegExp(`^${GEMINI_HOOK_PATH.replaceAll("/", "\\/")}$`),
    agentName: "Gemini CLI",
    door: GEMINI_CLI_DOOR,
    handle: handleGeminiHook,
  }),
];
