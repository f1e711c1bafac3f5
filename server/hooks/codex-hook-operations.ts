// Codex's command hooks, over the API: `podwatch hook --agent codex` posts each hook's input here.
// Declared for the OpenAPI document and the reference; served by server/http/codex-hook-routes.ts
// (`handwritten`, like Claude Code's door): a gated call gets a decision whatever fails.
import { hookDoorOperation, ZHookOutput } from "./hook-operations";

export const codexHookOperations = {
  codexHook: hookDoorOperation({
    name: "codexHook",
    summary:
      "Codex's hook input, as its command hook reads it on stdin (`podwatch hook --agent codex` posts it), from " +
      "the agent whose token it is. The same events, gates and answers as Claude Code's hook door, recorded as " +
      "Codex's: observations answer `{}`; a gated call (PreToolUse, PermissionRequest) is held for the pod's rules " +
      "or a person's answer, up to `wait` seconds, and always answers 200 with allow or deny (Codex refuses ask), " +
      "by the pod's unreachable rule when podwatch fails before a decision.",
    inputFields: "Codex's hook input (hook_event_name, session_id, turn_id, tool_name, …",
    output: ZHookOutput,
    path: "/api/v1/hooks/codex",
  }),
};
