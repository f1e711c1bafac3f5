// Claude Code's hook input, validated loosely: the fields podwatch reads must have the right
// type, everything else passes through untouched (newer Claude Code versions add fields and
// events). Identifiers are bounded here; long texts are cut later, when they are summarised.
import { z } from "zod";
import { ZId } from "../domain/events/seed-formats";
import { parseWith } from "../shared/read-json";

/** The hook events podwatch turns into tape events (or gates). Anything else is answered `{}`. */
export const KNOWN_HOOK_EVENTS = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "Notification",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "Stop",
] as const;
export type KnownHookEvent = (typeof KNOWN_HOOK_EVENTS)[number];

const Id = z.string().min(1).max(200);
const Short = z.string().max(1000);
/** A text podwatch cuts to its own bound: any length the body limit let through. */
const Text = z.string();

const common = {
  /** The domain's id rule: a session id keys the pod's projections, so "constructor" or a control character is a 400 here, not a 500 later. */
  session_id: ZId,
  transcript_path: z.string().max(4096).optional(),
  cwd: z.string().max(4096).optional(),
  permission_mode: Short.optional(),
  /** When the command hook fired (it adds this): a spooled hook replayed later keeps its own time as the event's `ts`. Ignored when malformed. */
  podwatch_hook_ts: z.iso.datetime({ offset: true }).optional().catch(undefined),
};
const tool = { tool_name: Id, tool_input: z.unknown().optional(), tool_use_id: Id.optional() };
const shape = <E extends KnownHookEvent, S extends z.ZodRawShape>(event: E, fields: S) =>
  z.looseObject({ ...common, hook_event_name: z.literal(event), ...fields });

const ZKnownHookInput = z.discriminatedUnion("hook_event_name", [
  shape("SessionStart", { source: Short.optional(), model: Short.optional() }),
  shape("SessionEnd", { reason: Short.optional() }),
  shape("UserPromptSubmit", { prompt: Text }),
  shape("PreToolUse", tool),
  shape("PermissionRequest", tool),
  shape("PostToolUse", {
    ...tool,
    tool_response: z.unknown().optional(),
    duration_ms: z.number().nonnegative().optional(),
  }),
  shape("PostToolUseFailure", {
    ...tool,
    error: Text.optional(),
    is_interrupt: z.boolean().optional(),
    duration_ms: z.number().nonnegative().optional(),
  }),
  shape("Notification", {
    message: Text.optional(),
    title: Short.optional(),
    notification_type: Short.optional(),
  }),
  shape("SubagentStart", { agent_id: Id, agent_type: Short.optional() }),
  shape("SubagentStop", {
    agent_id: Id,
    agent_type: Short.optional(),
    last_assistant_message: Text.optional(),
  }),
  shape("PreCompact", { trigger: Short.optional() }),
  shape("Stop", { last_assistant_message: Text.optional(), stop_hook_active: z.boolean().optional() }),
]);
export type HookInput = z.output<typeof ZKnownHookInput>;
export type HookInputOf<E extends KnownHookEvent> = Extract<HookInput, { hook_event_name: E }>;

const ZAnyHook = z.looseObject({ hook_event_name: z.string().min(1).max(200) });

/** The hook input of an event podwatch knows, or null for one it does not (answered `{}`, nothing stored). 400 when malformed. */
export function parseHookInput(body: unknown): HookInput | null {
  const { hook_event_name } = parseWith(ZAnyHook, body, "hook input");
  if (!(KNOWN_HOOK_EVENTS as readonly string[]).includes(hook_event_name)) return null;
  return parseWith(ZKnownHookInput, body, `${hook_event_name} hook input`);
}
