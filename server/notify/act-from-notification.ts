// A notification's button, answered: the same server actions as the inbox card
// (decide, answer an escalation, allow or deny a held tool call, resume an idle agent) through
// the same chain, as the signed-in person.
import type { AppContext } from "../app-context";
import { requirePodAccess, type Identity } from "../domain/access/policy";
import type { ActionResult } from "../wire/actions";
import type { TActRequest } from "../wire/notifications";
import { answerEscalationAction, answerToolApprovalAction, decideAction } from "../pods/inbox-answer-actions";
import { performPodAction } from "../pods/perform-pod-action";
import { heldCallLine } from "../gates/held-call-summary";
import { notificationActions, OPEN, RESUME_TEXT } from "./notification-content";
import { steerSessionAction } from "../steer/steer-session";
import { sha256Hex } from "../wire/hash";

const RATIONALE = {
  approve: "Approved from a notification",
  accept: "Accepted from a notification",
  reject: "Rejected from a notification",
} as const;

export async function actFromNotification(
  app: AppContext,
  identity: Identity,
  input: TActRequest,
): Promise<ActionResult> {
  const state = await app.store.readState(input.podId);
  // Nothing about the pod is told before the caller is known to be one of its approvers.
  const verdict = requirePodAccess(identity, input.podId, state, "approver");
  if (!verdict.ok) return { ok: false, code: verdict.code, error: verdict.message };
  const item = state!.inbox[input.itemId];
  if (!item)
    return {
      ok: false,
      code: "stale",
      error: "This was already answered (or withdrawn): nothing was recorded.",
    };
  if (input.action === OPEN.action)
    return {
      ok: false,
      code: "invalid_request",
      error: "open only opens podwatch on the device: it answers nothing",
    };
  if (item.kind === "tool_approval" && input.action === "allow" && !heldCallLine(state!, item)?.whole) {
    // Its notification could not show the whole call plainly, so it offered no Allow: a crafted request gets none either.
    return {
      ok: false,
      code: "not_shown_whole",
      error:
        "This call is longer than a notification shows, or holds hidden characters: open podwatch to read it whole before allowing it.",
    };
  }
  if (!notificationActions(state!, item).some((a) => a.action === input.action)) {
    return {
      ok: false,
      code: "stale",
      error: "This can no longer be answered from a notification: open podwatch.",
    };
  }
  if (item.kind === "tool_approval") {
    // Allow from a notification is "once": remembering a call for later is decided in the inbox, where its whole input shows.
    const answer = {
      requestId: item.subject.id,
      decision: input.action as "allow" | "deny",
      remember: "once" as const,
      ...(input.reason ? { reason: input.reason } : {}),
    };
    return performPodAction(app, identity, answerToolApprovalAction, { podId: input.podId, answer });
  }
  if (item.kind === "idle") {
    // One resume per time the agent was held: a second tap (or a second device) stores nothing new.
    const steerId = `resume-${sha256Hex(`${item.id}@${item.at}`).slice(0, 24)}`;
    const steer = { podId: input.podId, sessionId: item.subject.id, steerId, act: "resume" as const };
    return performPodAction(app, identity, steerSessionAction, {
      ...steer,
      text: input.reason || RESUME_TEXT,
    });
  }
  if (item.kind === "escalation") {
    const answer =
      state!.escalations[item.subject.id]!.options[Number(input.action.slice("option:".length))]!;
    return performPodAction(app, identity, answerEscalationAction, {
      podId: input.podId,
      escalationId: item.subject.id,
      answer,
    });
  }
  const verb = input.action as "approve" | "accept" | "reject";
  return performPodAction(app, identity, decideAction, {
    podId: input.podId,
    subject: item.subject,
    verdict: verb,
    rationale: RATIONALE[verb],
  });
}
