// A gated call that would wait for a person on a node that is shutting down: it is answered at
// once by the agent's unreachable rule (closed: deny, saying podwatch is restarting; open: no
// opinion), never left to a cut connection (Claude Code would run the tool). The tape says what
// the agent was told: the call's tool.call carries the rule's gate, and a request already asked
// is settled by podwatch in the same append, so neither a person later nor its deadline answers
// a call that was already answered otherwise. A person's answer that landed first still wins.
import type { AppContext } from "../app-context";
import { SYSTEM_ACTOR } from "../domain/events/event-schemas";
import type { TEventInput } from "../domain/events/event-schemas";
import { unreachableRule } from "../domain/state/tool-policy";
import { appendHookEvents, hookRouteSays, type HookCaller } from "./append-hook-events";
import { toolStarted } from "./claude-code-events";
import { hookEventId } from "./hook-event-id";
import type { HookInputOf } from "./hook-input";
import type { GateDecision } from "./hook-output";
import type { ApprovalAnswer } from "./wait-for-approval";

type Gated = HookInputOf<"PreToolUse" | "PermissionRequest">;
/** The rule's decision (null: no opinion), or the answer a person gave before the drain reached the call. */
export type DrainedAnswer = { decision: GateDecision | null } | { answer: ApprovalAnswer };

const RESTARTING =
  "podwatch is restarting (this server is shutting down) and cannot wait for a person's answer";

/** `requestId`: the approval already asked (null when the drain began before asking); `toolCallId`: the id of the call's tool.call. */
export async function answerDrainedCall(
  app: AppContext,
  who: HookCaller,
  h: Gated,
  c: { requestId: string | null; ruleId?: string; toolCallId: string },
): Promise<DrainedAnswer> {
  const state = await app.store.readState(who.podId);
  const open = c.requestId && state?.toolApprovals[c.requestId];
  if (open && open.answer) return { answer: open.answer };
  const rule = state ? unreachableRule(state, who.memberId) : "closed";
  const reason =
    rule === "closed"
      ? `${RESTARTING}; this agent's rule is to deny tool calls podwatch cannot check — run the tool again in a moment to ask anew`
      : `${RESTARTING}; this agent's rule is open, so Claude Code's own permission flow decides`;
  const decision = rule === "closed" ? "deny" : "allow";
  const gate = {
    decision,
    by: "unreachable",
    ...(c.ruleId ? { ruleId: c.ruleId } : {}),
    ...(open ? { requestId: c.requestId! } : {}),
    reason,
  } as const;
  const call: TEventInput = {
    id: c.toolCallId,
    type: "tool.call",
    actor: who.memberId,
    sessionId: h.session_id,
    body: { ...toolStarted(h), gate },
  };
  const settle: TEventInput[] = open
    ? [
        {
          id: hookEventId(c.requestId!, "drained"),
          type: "tool.approval.answered",
          actor: SYSTEM_ACTOR,
          body: { requestId: c.requestId!, decision, reason },
        },
      ]
    : [];
  try {
    await appendHookEvents(app, who, [...settle, call], hookRouteSays(who));
  } catch (e) {
    const answer = c.requestId
      ? (await app.store.readState(who.podId).catch(() => null))?.toolApprovals[c.requestId]?.answer
      : null;
    if (answer) return { answer }; // a person answered in between: theirs is the answer
    // The request could not be settled (an allow of a call too long to show whole): the call is still recorded.
    await appendHookEvents(app, who, [call], hookRouteSays(who)).catch(() =>
      console.error(
        `podwatch: the held call ${c.toolCallId} was answered by the unreachable rule (${rule}) as the server drains, but could not be recorded`,
        e,
      ),
    );
  }
  return { decision: rule === "closed" ? { decision: "deny", reason } : null };
}
