// One Claude Code hook call (or another agent's, put in its shape; `o.agent` says whose): observed events go on the tape; a PreToolUse or
// PermissionRequest is gated by the pod's tool policy unless it is a replay from a spool.
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { unreachableRule } from "../domain/state/tool-policy";
import type { ClaudeCodeHookOutput } from "../wire/hooks";
import { hookEvents } from "./claude-code-events";
import { parseHookInput } from "./hook-input";
import { decisionOutput } from "./hook-output";
import { agentSays, appendHookEvents, type HookCaller } from "./append-hook-events";
import { gateToolCall, type HoldOptions } from "./gate-tool-call";
import { inferredSessionStart } from "./inferred-session-start";
import { inSubagentSession } from "./subagent-session";

export type HookAnswer = { output: ClaudeCodeHookOutput; unreachable: "open" | "closed" } | "aborted";

export async function handleClaudeCodeHook(
  app: AppContext,
  who: HookCaller,
  body: unknown,
  o: HoldOptions & { replay: boolean },
): Promise<HookAnswer> {
  const parsed = parseHookInput(body);
  const state = await app.store.readState(who.podId);
  if (!state) throw new AppError(404, "not_found", "pod not found");
  const unreachable = unreachableRule(state, who.memberId);
  if (!parsed) return { output: {}, unreachable };
  const { input, subagent } = inSubagentSession(parsed);
  const ctx = {
    podId: who.podId,
    memberId: who.memberId,
    recordPrompts: state.recordPrompts,
    agent: o.agent ?? "claude-code",
  };
  const opened = inferredSessionStart(input, ctx, state, subagent);
  if (
    !o.replay &&
    (input.hook_event_name === "PreToolUse" || input.hook_event_name === "PermissionRequest")
  ) {
    await appendHookEvents(app, who, opened, agentSays(who));
    const gated = await gateToolCall(app, who, state, input, o);
    return gated === "aborted"
      ? gated
      : { output: decisionOutput(input.hook_event_name, gated), unreachable };
  }
  await appendHookEvents(app, who, [...opened, ...hookEvents(input, ctx)], agentSays(who));
  return { output: {}, unreachable };
}
