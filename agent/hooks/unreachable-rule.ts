// What a gated call gets when podwatch cannot be reached: the agent's rule as the server last
// said it (X-Podwatch-Unreachable on every answer, cached beside the spool), open by default.
// Open lets Claude Code's own permission flow decide ({}); closed denies, saying why. The
// decision is reported later: a tool.call carrying gate {by: "unreachable"} goes into the spool,
// its reason saying which it was: unreachable, or reached but too slow to answer in time.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import type { UnreachableRule } from "../sdk/hook-post";
import { Spool } from "./spool";
import { GATED_HOOK_EVENTS } from "./settings-snippet";

export const GATED_EVENTS: ReadonlySet<string> = new Set(GATED_HOOK_EVENTS);
const INPUT_SUMMARY_MAX = 2000;

export const readRule = (spool: Spool): UnreachableRule =>
  readRuleOrNull(spool) === "closed" ? "closed" : "open";

export function saveRule(spool: Spool, rule: UnreachableRule | null) {
  if (!rule || rule === readRuleOrNull(spool)) return;
  spool.ensureDir();
  writeFileSync(spool.sibling(".rule"), rule, { mode: 0o600 });
}

function readRuleOrNull(spool: Spool): string | null {
  try {
    return readFileSync(spool.sibling(".rule"), "utf8").trim();
  } catch {
    return null;
  }
}

/** Why podwatch could not decide: it could not be reached, it was reached but did not answer in time, refused for now, or the call could not be checked at all. */
export type Unanswered = "unreachable" | "slow" | "throttled" | "unchecked";
const UNANSWERED: Record<Unanswered, string> = {
  unreachable: "podwatch is unreachable",
  slow: "podwatch did not answer in time",
  throttled: "podwatch refused to check this call for now",
  unchecked: "podwatch could not check this call",
};

/** Claude Code's hook output for a gated call podwatch could not decide. */
export function unreachableAnswer(
  event: string,
  rule: UnreachableRule,
  why: string,
  cause: Unanswered = "unreachable",
): string {
  if (rule === "open") return "{}";
  return denyAnswer(
    event,
    `${UNANSWERED[cause]} (${why}) and this agent's rule is to deny tool calls podwatch cannot check`,
  );
}

/** Claude Code's hook output denying a gated call, with the reason the agent reads. */
export function denyAnswer(event: string, reason: string): string {
  if (event === "PermissionRequest")
    return JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: reason },
      },
    });
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  });
}

/**
 * The tool call as it will land once podwatch is back: started, with the rule's decision. Only a
 * PreToolUse has the tool_use_id that joins it to its PostToolUse; a PermissionRequest follows
 * a PreToolUse that was already reported. Its id is the one the hook route derives for this
 * PreToolUse: a second replay, or the hook itself arriving after all, stores nothing new.
 */
export function unreachableReport(
  payload: Record<string, unknown>,
  rule: UnreachableRule,
  cause: Unanswered = "unreachable",
): Record<string, unknown> | null {
  const toolUseId = typeof payload.tool_use_id === "string" ? payload.tool_use_id : null;
  if (payload.hook_event_name !== "PreToolUse" || !toolUseId) return null;
  const sessionId =
    typeof payload.session_id === "string" && payload.session_id ? payload.session_id : undefined;
  const tool =
    typeof payload.tool_name === "string" && payload.tool_name ? payload.tool_name.slice(0, 200) : "unknown";
  const input = subjectOf(payload.tool_input).slice(0, INPUT_SUMMARY_MAX);
  const decision = rule === "open" ? "allow" : "deny";
  return {
    // The id the hook route would have given this PreToolUse (sent as hookId, made into the id once the member is known).
    hookId: [sessionId ?? "", "PreToolUse", toolUseId],
    type: "tool.call",
    ts: new Date().toISOString(),
    ...(sessionId ? { sessionId } : {}),
    body: {
      toolUseId,
      tool,
      phase: "started",
      input,
      gate: {
        decision,
        by: "unreachable",
        reason: `${cause === "slow" ? "podwatch did not answer in time" : "podwatch was unreachable"}; the agent's rule is ${rule}`,
      },
    },
  };
}

/** What the call is about, as the tape shows it: the command, the file, the URL — else the input's JSON. */
function subjectOf(input: unknown): string {
  const o = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  for (const k of ["command", "file_path", "notebook_path", "path", "url"])
    if (typeof o[k] === "string") return o[k];
  return JSON.stringify(input ?? null);
}

/** A UUID (v4 layout) from a SHA-256 of the parts: the same parts give the same id, on every machine. */
export function derivedUuid(parts: string[]): string {
  const h = createHash("sha256").update(parts.join("\u0000")).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
