// Ids for what a hook puts on the tape, derived from the hook itself: Claude Code retrying an
// http hook, or the command hook replaying its spool, stores each event once.
import { sha256Hex as sha256 } from "../domain/hash-chain";
import { stableJson } from "../domain/state/tool-policy";
import { hookEventUuid } from "../wire/hash";
import type { HookInput } from "./hook-input";

/** What a tool call would do, as one digest: its tool and its input. */
const callDigest = (tool: string, input: unknown) => sha256(`${tool}\n${stableJson(input ?? null)}`);

/**
 * What identifies one hook call: the pod, the member, the session, the event, and the tool call's
 * id — or, for events without one, the hash of the whole payload (unknown fields included, so a
 * client that wants two identical prompts kept apart adds a unique field of its own).
 */
export function hookKey(podId: string, memberId: string, input: HookInput): string {
  const tool = "tool_use_id" in input ? input.tool_use_id : undefined;
  return JSON.stringify([
    podId,
    memberId,
    input.session_id,
    input.hook_event_name,
    tool ?? sha256(stableJson(input)),
  ]);
}

/** The id of one of the events a hook call adds (`part` tells them apart). */
export const hookEventId = hookEventUuid;

/**
 * The approval request of a gated call: its hook's key and what the call would do (tool and
 * input). A call re-sent under the same tool_use_id with another input (an agent replaying an
 * allowed id with a new command) is another request and asks again, instead of riding the
 * earlier answer; a true retry (same input) still finds its own request.
 */
export const gatedRequestId = (key: string, tool: string, input: unknown) =>
  hookEventId(key, `approval|${callDigest(tool, input)}`);

/** A tool call's id when the hook gives none (older versions, PermissionRequest): the same for its pre and its post. */
export const fallbackToolUseId = (tool: string, input: unknown) =>
  `input-${callDigest(tool, input).slice(0, 24)}`;
