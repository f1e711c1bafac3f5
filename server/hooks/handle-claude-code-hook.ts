// One Claude Code hook call (or another agent's, put in its shape; `o.agent` says whose): observed events go on the tape; a PreToolUse or
// PermissionRequest is gated by the pod's tool policy unless it is a replay from a spool. A live
// hook (never a replay: its answer reaches nobody) also carries what people told the session
// (server/steer/): an interrupt pending at a tool call denies it before any rule is asked, and a
// Stop with nothing to carry may wait for a person's Resume (hold-idle-stop.ts).
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { unreachableRule } from "../domain/state/tool-policy";
import type { ClaudeCodeHookOutput } from "../wire/hooks";
import { hookEvents } from "./claude-code-events";
import { parseHookInput } from "./hook-input";
import { decisionOutput } from "./hook-output";
import { agentSays, appendHookEvents, hookRouteSays, type HookCaller } from "./append-hook-events";
import { gateToolCall, type HoldOptions } from "./gate-tool-call";
import { inferredSessionStart } from "./inferred-session-start";
import { inSubagentSession } from "./subagent-session";
import { toolStarted } from "./claude-code-events";
import { hookEventId, hookKey } from "./hook-event-id";
import { answerFor, deliverSteers, heldInterrupt, pendingSteers } from "../steer/deliver-steers";
import { holdIdleStop } from "../steer/hold-idle-stop";

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
    // Read before anything is written: a person's interrupt denies the call even if a write fails.
    const own = pendingSteers(state, who, input, ctx.agent);
    const holder = subagent ? subagent.parentSessionId : ctx.agent === "codex" ? input.session_id : null;
    const inherited = own.length || !holder ? [] : heldInterrupt(state, who, holder);
    const interrupt = own.length ? own : inherited;
    const written = await appendHookEvents(app, who, opened, agentSays(who)).then(
      () => true,
      (e: unknown) => {
        if (!interrupt.length) throw e;
        console.error("podwatch: a session's start could not be recorded before an interrupt", e);
        return false;
      },
    );
    if (interrupt.length) {
      // Denied whether or not its delivery is written: a person said stop, so the call never runs.
      const reason = answerFor(state, ctx.agent, input, interrupt);
      const call = {
        id: hookEventId(hookKey(who.podId, who.memberId, input), "event"),
        type: "tool.call",
        actor: who.memberId,
        sessionId: input.session_id,
        body: {
          ...toolStarted(input),
          gate: { decision: "deny", by: "person", reason: interruptReason(reason) },
        },
      } as const;
      if (inherited.length) {
        if (input.hook_event_name === "PreToolUse")
          await appendHookEvents(app, who, [call], hookRouteSays(who)).catch((e: unknown) =>
            console.error("podwatch: a call a held interrupt denied could not be recorded", e),
          );
        return { output: reason, unreachable };
      }
      const delivered = written
        ? await deliverSteers(
            app,
            who,
            state,
            input,
            ctx.agent,
            input.hook_event_name === "PreToolUse" ? [call] : [],
          )
        : { steers: [], output: {} };
      return { output: delivered.steers.length ? delivered.output : reason, unreachable };
    }
    const gated = await gateToolCall(app, who, state, input, o);
    return gated === "aborted"
      ? gated
      : { output: decisionOutput(input.hook_event_name, gated), unreachable };
  }
  await appendHookEvents(app, who, [...opened, ...hookEvents(input, ctx)], agentSays(who));
  if (o.replay) return { output: {}, unreachable };
  const delivered = await deliverSteers(app, who, state, input, ctx.agent);
  if (delivered.steers.length || input.hook_event_name !== "Stop")
    return { output: delivered.output, unreachable };
  // Nothing for the agent at its Stop: an agent whose policy says so waits there for a person's Resume.
  const held = await holdIdleStop(app, who, state, input, ctx.agent, o);
  return held === "aborted" ? held : { output: held.output, unreachable };
}

function interruptReason(o: ClaudeCodeHookOutput): string {
  const h = o.hookSpecificOutput;
  const why =
    h?.hookEventName === "PreToolUse" ? h.permissionDecisionReason : (o.stopReason ?? "interrupted");
  return why.slice(0, 2000);
}
