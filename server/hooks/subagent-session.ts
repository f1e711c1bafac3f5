// Work done inside a subagent is its own session, under its parent: Claude Code adds `agent_id`
// and `agent_type` to the hook input of everything a subagent does (its tool calls, its
// notifications), while `session_id` stays the parent's. Pure. The child's id is derived from the
// parent's and the agent's (`<parent>/<agent_id>`, hashed when that is too long), so every hook of
// one subagent lands in one session, and SubagentStart / SubagentStop open and close it.
import { sha256Hex } from "../domain/hash-chain";
import type { HookInput } from "./hook-input";

const SESSION_ID_MAX = 200;
export type SubagentOf = { parentSessionId: string; agentType?: string };

/** The session id of the subagent `agentId` run by the session `parent`. */
export function childSessionId(parent: string, agentId: string): string {
  const id = `${parent}/${agentId}`;
  return id.length <= SESSION_ID_MAX ? id : `${parent.slice(0, 100)}/${sha256Hex(id).slice(0, 64)}`;
}

const textField = (h: HookInput, key: string) => {
  const v = (h as Record<string, unknown>)[key];
  return typeof v === "string" && v.length > 0 && v.length <= 200 ? v : undefined;
};

/**
 * The hook as its subagent's session sees it: a hook that came from inside a subagent moves to
 * the child session (and says whose child it is); SubagentStart / SubagentStop, which the parent
 * reports, and every hook of the session itself stay as they are.
 */
export function inSubagentSession(h: HookInput): { input: HookInput; subagent: SubagentOf | null } {
  const agentId = textField(h, "agent_id");
  if (!agentId || h.hook_event_name === "SubagentStart" || h.hook_event_name === "SubagentStop")
    return { input: h, subagent: null };
  const agentType = textField(h, "agent_type");
  return {
    input: { ...h, session_id: childSessionId(h.session_id, agentId) },
    subagent: { parentSessionId: h.session_id, ...(agentType ? { agentType } : {}) },
  };
}
