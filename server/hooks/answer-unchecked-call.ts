// What a door answers a gated call it could not evaluate: unreadable or out-of-bounds input, a
// caller it will not serve, a rate limit, a drain, a failure of its own. An agent runs a tool
// when its hook answers anything but 2xx, so a gated call gets a 200 with the decision the pod's
// unreachable rule gives (closed: deny, saying why; open: no opinion). Anything that cannot gate
// keeps its error. Each agent's door says which of its events gate and how a decision is shaped.
import type { AppContext } from "../app-context";
import type { Identity } from "../domain/access/policy";
import { AppError } from "../domain/errors";
import { unreachableRule } from "../domain/state/tool-policy";
import { decisionOutput, type GateDecision } from "./hook-output";
import { topLevelStrings } from "../wire/top-level-strings";

export type UnreachableRule = "open" | "closed";

export type GatedDoor = {
  /** The body's key naming its event, in the outermost object. */
  eventKey: string;
  /** Events whose answer decides whether a tool runs. */
  gating: ReadonlySet<string>;
  /** The agent's answer for one of them: a decision, or null for no opinion. */
  output: (event: string, decision: GateDecision | null) => unknown;
};

export const CLAUDE_CODE_DOOR: GatedDoor = {
  eventKey: "hook_event_name",
  gating: new Set(["PreToolUse", "PermissionRequest"]),
  output: (event, d) => decisionOutput(event as "PreToolUse" | "PermissionRequest", d),
};

/** The gating event a body names, if any: when its key is given twice, any value that gates counts. */
export const gatingEventOf = (door: GatedDoor, bytes: Uint8Array): string | null =>
  topLevelStrings(bytes, door.eventKey).find((e) => door.gating.has(e)) ?? null;

export type UncheckedAnswer = { output: unknown; unreachable: UnreachableRule | null };

/** Why the door could not decide, in words the agent and a person can read. */
export function whyUnchecked(e: unknown): string {
  if (!(e instanceof AppError)) return "podwatch failed while checking it (an internal error)";
  if (e.status === 401 || e.status === 403)
    return "podwatch does not accept this hook's credentials (it needs an agent token of the pod: revoked, or mistyped?)";
  if (e.status === 429) return `podwatch refused to check it for now (429: ${e.message})`;
  return `podwatch could not check it (${e.status} ${e.code}: ${e.message})`;
}

const denied = (event: string, why: string, rule: string) => ({
  decision: "deny" as const,
  reason: `podwatch: this ${event} was not checked: ${why}; ${rule}`,
});

/**
 * The answer to a gated `event` podwatch could not evaluate, for `who` (null when the caller is
 * not an agent of a pod). A caller without a valid agent token has no pod whose rule could be
 * read: it is denied (it learns nothing, and a revoked token is meant to stop its agent). When
 * the rule itself cannot be read (the database is down), the call is denied too.
 */
export async function uncheckedAnswer(
  app: AppContext,
  door: GatedDoor,
  event: string,
  who: Extract<Identity, { kind: "agent" }> | null,
  why: string,
): Promise<UncheckedAnswer> {
  if (!who)
    return {
      output: door.output(event, denied(event, why, "a call podwatch cannot check is denied")),
      unreachable: null,
    };
  const rule = await app.store.readState(who.podId).then(
    (s): UnreachableRule | null => (s ? unreachableRule(s, who.memberId) : null),
    () => null,
  );
  if (rule === "open") return { output: door.output(event, null), unreachable: rule };
  const words = rule
    ? "this agent's rule is to deny tool calls podwatch cannot check"
    : "podwatch could not read this agent's rule either, so it denies";
  return { output: door.output(event, denied(event, why, words)), unreachable: rule };
}
