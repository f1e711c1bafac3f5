// Claude Code's hook input → podwatch's typed events. Pure: the route gates tool
// calls and appends; this only says what a hook means on the tape. Every text is cut to the
// event's bound; a hook that means nothing (an unknown event) maps to [].
import { SUMMARY_MAX } from "../domain/events/agent-events";
import type { TEventInput } from "../domain/events/event-schemas";
import { cut, inputSummary, outputSummary } from "./summarize";
import { parseStopReport } from "./stop-report";
import { fallbackToolUseId, hookEventId, hookKey } from "./hook-event-id";
import type { HookInput, HookInputOf } from "./hook-input";
import type { AgentKind } from "../domain/vocabulary";
import { childSessionId } from "./subagent-session";

/** `agent`: whose hooks these are (hook inputs of other agents are first put in Claude Code's shape). */
export type HookContext = { podId: string; memberId: string; recordPrompts: boolean; agent: AgentKind };
type Drafted = { type: string; body: Record<string, unknown> };

const MAX_DURATION_MS = 7 * 24 * 3600_000;
/** The status a Stop without a final message leaves: the turn ended, the agent said nothing. */
export const STOPPED_SILENT = "(the turn ended without a message)";
const opt = (v: string | undefined, max: number) => (v === undefined || v === "" ? undefined : cut(v, max));

export const toolUseIdOf = (
  h: HookInputOf<"PreToolUse" | "PermissionRequest" | "PostToolUse" | "PostToolUseFailure">,
) => h.tool_use_id ?? fallbackToolUseId(h.tool_name, h.tool_input);

/** A PreToolUse's tool.call (started), before any gate is added. */
export function toolStarted(h: HookInputOf<"PreToolUse" | "PermissionRequest">) {
  return {
    toolUseId: toolUseIdOf(h),
    tool: cut(h.tool_name, 200),
    phase: "started" as const,
    input: inputSummary(h.tool_name, h.tool_input, h.cwd),
  };
}

function draft(h: HookInput, ctx: HookContext): Drafted | null {
  switch (h.hook_event_name) {
    case "SessionStart":
      return {
        type: "session.started",
        body: {
          via: ctx.agent,
          source: opt(h.source, 50),
          model: opt(h.model, 200),
          cwd: opt(h.cwd, 1000),
          permissionMode: opt(h.permission_mode, 50),
        },
      };
    case "SessionEnd":
      return { type: "session.ended", body: { reason: opt(h.reason, 200) } };
    case "UserPromptSubmit":
      return {
        type: "prompt.submitted",
        body: {
          chars: h.prompt.length,
          ...(ctx.recordPrompts && h.prompt ? { text: cut(h.prompt, SUMMARY_MAX) } : {}),
        },
      };
    case "PreToolUse":
      return { type: "tool.call", body: toolStarted(h) };
    case "PermissionRequest":
      return null; // recorded only when a rule or a person decides it (the route does)
    case "PostToolUse":
    case "PostToolUseFailure": {
      const failed = h.hook_event_name === "PostToolUseFailure";
      const duration =
        h.duration_ms !== undefined && h.duration_ms <= MAX_DURATION_MS
          ? Math.round(h.duration_ms)
          : undefined;
      return {
        type: "tool.call",
        body: {
          toolUseId: toolUseIdOf(h),
          tool: cut(h.tool_name, 200),
          phase: failed ? "failed" : "succeeded",
          input: inputSummary(h.tool_name, h.tool_input, h.cwd),
          ...(failed
            ? { error: opt(h.error, SUMMARY_MAX), interrupted: h.is_interrupt }
            : { output: outputSummary(h.tool_response) }),
          durationMs: duration,
        },
      };
    }
    case "Notification":
      return {
        type: "agent.notified",
        body: {
          message: cut(h.message?.trim() || h.title?.trim() || "(no message)", 2000),
          title: opt(h.title, 200),
          notificationType: opt(h.notification_type, 100),
        },
      };
    case "SubagentStart":
    case "SubagentStop": {
      const summary =
        h.hook_event_name === "SubagentStop" ? opt(h.last_assistant_message?.trim(), SUMMARY_MAX) : undefined;
      return {
        type: "subagent",
        body: {
          phase: h.hook_event_name === "SubagentStart" ? "started" : "stopped",
          agentId: h.agent_id,
          agentType: opt(h.agent_type, 200),
          summary,
        },
      };
    }
    case "PreCompact":
      return { type: "session.compacted", body: { trigger: cut(h.trigger?.trim() || "unknown", 50) } };
    case "Stop": {
      // Even without a message (an agent that ended on a tool call, or said nothing), a Stop is the
      // turn's end: the note says so, or the session would read as working until its next prompt.
      const message = h.last_assistant_message?.trim();
      if (!message) return { type: "note", body: { kind: "STATUS", text: STOPPED_SILENT } };
      const report = parseStopReport(message);
      return report
        ? { type: "checkpoint", body: report }
        : { type: "note", body: { kind: "STATUS", text: cut(message, SUMMARY_MAX) } };
    }
  }
}

/** SubagentStart and SubagentStop, reported in the parent's session, also open and close the subagent's own. */
function subagentSession(h: HookInput, ctx: HookContext): (Drafted & { sessionId: string }) | null {
  if (h.hook_event_name !== "SubagentStart" && h.hook_event_name !== "SubagentStop") return null;
  const sessionId = childSessionId(h.session_id, h.agent_id);
  return h.hook_event_name === "SubagentStart"
    ? {
        sessionId,
        type: "session.started",
        body: {
          via: ctx.agent,
          source: "subagent",
          cwd: opt(h.cwd, 1000),
          parentSessionId: h.session_id,
          agentType: opt(h.agent_type, 200),
        },
      }
    : { sessionId, type: "session.ended", body: { reason: "subagent stopped" } };
}

/** The events a hook adds to the tape (one, or two for a subagent's start and stop), each with its derived id, spoken by the token's member. */
export function hookEvents(h: HookInput, ctx: HookContext): TEventInput[] {
  const d = draft(h, ctx);
  if (!d) return [];
  const key = hookKey(ctx.podId, ctx.memberId, h);
  const child = subagentSession(h, ctx);
  return [
    { ...d, sessionId: h.session_id, part: "event" },
    ...(child ? [{ ...child, part: "subagent-session" }] : []),
  ].map(
    (x) =>
      ({
        id: hookEventId(key, x.part),
        type: x.type,
        actor: ctx.memberId,
        sessionId: x.sessionId,
        ...(h.podwatch_hook_ts ? { ts: h.podwatch_hook_ts } : {}),
        body: x.body,
      }) as TEventInput,
  );
}
