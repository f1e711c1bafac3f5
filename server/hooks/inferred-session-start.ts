// A session podwatch never saw start (Claude Code runs no HTTP hook at SessionStart, a settings
// file older than its command hook, a start hook that failed) is opened by its first event that
// arrives: a session.started with source "inferred" just before it. Pure. The id is derived from
// the session alone, so a retry, a replay or two first events at once store one start.
import type { TEventInput } from "../domain/events/event-schemas";
import type { PodState } from "../domain/state/pod-state";
import type { HookContext } from "./claude-code-events";
import { hookEventId } from "./hook-event-id";
import type { HookInput } from "./hook-input";
import { cut } from "./summarize";
import type { SubagentOf } from "./subagent-session";

export function inferredSessionStart(
  h: HookInput,
  ctx: HookContext,
  state: PodState,
  subagent: SubagentOf | null = null,
): TEventInput[] {
  if (h.hook_event_name === "SessionStart" || Object.hasOwn(state.sessions, h.session_id)) return [];
  const model = "model" in h && typeof h.model === "string" && h.model ? cut(h.model, 200) : undefined;
  return [
    {
      id: hookEventId(JSON.stringify([ctx.podId, ctx.memberId, h.session_id]), "inferred-start"),
      type: "session.started",
      actor: ctx.memberId,
      sessionId: h.session_id,
      ...(h.podwatch_hook_ts ? { ts: h.podwatch_hook_ts } : {}),
      body: {
        via: ctx.agent,
        source: "inferred",
        ...(model ? { model } : {}),
        ...(h.cwd ? { cwd: cut(h.cwd, 1000) } : {}),
        ...(h.permission_mode ? { permissionMode: cut(h.permission_mode, 50) } : {}),
        ...subagent,
      },
    } as TEventInput,
  ];
}
