// Codex's hook door. Codex reads the same decision JSON Claude Code does (hookSpecificOutput with
// permissionDecision allow/deny and a reason; PermissionRequest's decision.behavior), and rejects
// any field it does not know, so the answers are Claude Code's door's, exactly.
import { CLAUDE_CODE_DOOR } from "../hooks/answer-unchecked-call";
import { codexHookInput } from "../hooks/codex-hook-input";
import { hookRoute } from "./hook-routes";
import type { Route } from "./route";

export const codexHookRoutes: Route[] = [
  hookRoute({
    path: /^\/api\/v1\/hooks\/codex$/,
    agent: "codex",
    door: CLAUDE_CODE_DOOR,
    normalise: codexHookInput,
  }),
];
