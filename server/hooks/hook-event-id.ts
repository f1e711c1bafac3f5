// Ids for what a hook puts on the tape, derived from the hook itself: Claude Code retrying an
// http hook, or the command hook replaying its spool, stores each event once.
import { createHash } from "node:crypto";
import { systemEventId } from "../deadlines/system-event-id";
import { stableJson } from "../domain/state/tool-policy";
import type { HookInput } from "./hook-input";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * What identifies one hook call: the pod, the member, the session, the event, and the tool call's
 * id — or, for events without one, the hash of the whole payload (unknown fields included, so a
 * client that wants two identical prompts kept apart adds a unique field of its own).
 */
export function hookKey(podId: string, memberId: string, input: HookInput): string {
  const tool = "tool_use_id" in input ? input.tool_use_id : undefined;
  return JSON.stringify([podId, memberId, input.session_id, input.hook_event_name, tool ?? sha256(stableJson(input))]);
}

/** The id of one of the events a hook call adds (`part` tells them apart). */
export const hookEventId = (key: string, part: string) => systemEventId(`claude-code-hook|${key}|${part}`);

/**
 * The approval request of a gated call: its hook's key and what the call would do (tool and
 * input). A call re-sent under the same tool_use_id with another input (an agent replaying an
 * allowed id with a new command) is another request and asks again, instead of riding the
 * earlier answer; a true retry (same input) still finds its own request.
 */
export const gatedRequestId = (key: string, tool: string, input: unknown) => hookEventId(key, `approval|${sha256(`${tool}\n${stableJson(input ?? null)}`)}`);

/** A tool call's id when the hook gives none (older versions, PermissionRequest): the same for its pre and its post. */
export const fallbackToolUseId = (tool: string, input: unknown) => `input-${sha256(`${tool}\n${stableJson(input ?? null)}`).slice(0, 24)}`;
