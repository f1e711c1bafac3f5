// A PreToolUse or PermissionRequest against the pod's tool policy: a rule allows or
// denies at once; "ask" puts an approval in the inbox and holds the call until a person (or the
// deadline's default) answers. What was decided goes on the tape as the call's tool.call.
// Whatever podwatch itself fails at once a call is gated answers deny, never an error: Claude
// Code lets a call through when its http hook answers anything but 2xx.
import type { AppContext } from "../app-context";
import type { AgentKind } from "../domain/vocabulary";
import { AppError } from "../domain/errors";
import { gatedInputText } from "./gated-input";
import type { PodState } from "../domain/state/pod-state";
import { askSettings, evaluateToolCall, type ToolVerdict } from "../domain/state/tool-policy";
import { toolStarted, toolUseIdOf } from "./claude-code-events";
import { gatedRequestId, hookEventId, hookKey } from "./hook-event-id";
import type { HookInputOf } from "./hook-input";
import type { GateDecision } from "./hook-output";
import { appendHookEvents, hookRouteSays, type HookCaller } from "./append-hook-events";
import { recentContext } from "./recent-context";
import { waitForApproval, type ApprovalAnswer } from "./wait-for-approval";
import type { HeldCalls } from "./held-calls";
import { tokenStillValid } from "../access/token-still-valid";
import { cut } from "./summarize";
import { budgetHoldLine } from "./budget-hold-line";
import { askDefault } from "../domain/state/reduce-tool-gates";
import { answerDrainedCall } from "./answer-drained-call";

type Gated = HookInputOf<"PreToolUse" | "PermissionRequest">;
type Gate = {
  decision: "allow" | "deny";
  by: "policy" | "person" | "deadline";
  ruleId?: string;
  requestId?: string;
  reason?: string;
};
/** `signal`: the caller hung up; `drain`: the node began to shut down (held calls are answered at once, answer-drained-call.ts). */
export type HoldOptions = {
  /** Whose hook this is (another agent's input is first put in Claude Code's shape); Claude Code when absent. */
  agent?: AgentKind;
  waitSeconds: number;
  signal: AbortSignal;
  drain: AbortSignal;
  held: HeldCalls;
  heldKey: string;
};
/** null: no rule spoke (Claude Code's own flow applies); "aborted": the caller hung up, nothing to answer. */
export type GateOutcome = GateDecision | null | "aborted";

/** The server answers a little before the hook's own wait ends, so its answer still arrives. */
export const holdMs = (waitSeconds: number) => waitSeconds * 1000 - Math.min(5000, waitSeconds * 100);
/** The scheduler's slack: a deadline this long before the hold ends still answers the held call. */
const DEADLINE_SLACK_MS = 10_000;
const deny = (reason: string): GateDecision => ({ decision: "deny", reason });

export async function gateToolCall(
  app: AppContext,
  who: HookCaller,
  state: PodState,
  h: Gated,
  o: HoldOptions,
): Promise<GateOutcome> {
  // The call's own folder, as the hook reports it: a session's cwd is what it claimed at its start, and the agent may have moved since.
  const agent = o.agent ?? "claude-code";
  const verdict = evaluateToolCall(
    state,
    who.memberId,
    h.session_id,
    h.tool_name,
    h.tool_input ?? {},
    h.cwd,
    agent,
  );
  const key = hookKey(who.podId, who.memberId, h);
  const record = recorder(app, who, h, hookEventId(key, "event"));
  if (verdict.action === "allow" && verdict.scope === "none") {
    if (h.hook_event_name === "PreToolUse") await record(); // a PermissionRequest that no rule decides is Claude Code's own prompt: nothing to add
    return null;
  }
  if (verdict.action !== "ask") {
    const reason = policyReason(verdict, h.tool_name);
    await record({ decision: verdict.action, by: "policy", ruleId: verdict.ruleId, reason });
    return { decision: verdict.action, reason };
  }
  const requestId = gatedRequestId(key, h.tool_name, h.tool_input ?? {});
  const answered = (a: ApprovalAnswer) => finish(a, requestId, verdict.ruleId, record);
  const existing = state.toolApprovals[requestId];
  if (existing?.answer) return answered(existing.answer); // a retry of a call already decided
  const drained = async (asked: boolean) => {
    const a = await answerDrainedCall(app, who, h, {
      requestId: asked ? requestId : null,
      ruleId: verdict.ruleId,
      toolCallId: hookEventId(key, "event"),
    });
    return "answer" in a ? answered(a.answer) : a.decision;
  };
  if (o.drain.aborted) return drained(Boolean(existing)); // a node shutting down asks nobody new
  const release = o.held.acquire(o.heldKey);
  if (!release)
    return deny(
      "podwatch: too many tool calls of this agent are held at once, waiting for an answer; try again in a few seconds",
    );
  try {
    // A retry of a call still waiting waits on the same request instead of asking again.
    if (!existing) await askPerson(app, who, state, h, requestId, verdict, o.waitSeconds, agent);
    const waited = await waitForApproval(app.store, app.bus, who.podId, requestId, {
      waitMs: holdMs(o.waitSeconds),
      signal: o.signal,
      drain: o.drain,
    });
    if ("ended" in waited && waited.ended === "aborted") return "aborted";
    // Held for minutes: the token may have been revoked meanwhile. Its call gets no answer but deny, and leaves nothing on the tape.
    if (!(await tokenStillValid(app.store, who.tokenId)))
      return deny("podwatch: the agent token was revoked while this call was held");
    if ("answer" in waited) return answered(waited.answer);
    if (waited.ended === "drained") return drained(true);
    if (waited.ended === "unknown_request")
      return deny("podwatch no longer holds this approval request; run the tool again to ask anew");
    const reason = `No answer came in time: the hold ended (the hook waits ${o.waitSeconds} s) before anyone answered; the request stays in the podwatch inbox — run the tool again once it is answered`;
    await record({ decision: "deny", by: "deadline", requestId, ruleId: verdict.ruleId, reason });
    return deny(reason);
  } catch (e) {
    // Asking or waiting failed (the pod closed, the database went away): the rule said ask, nobody could be asked.
    if (e instanceof AppError)
      console.warn(`podwatch: a gated tool call could not be held (${e.code}); answering deny`);
    else console.error("podwatch: a gated tool call could not be held; answering deny", e);
    return deny(
      `podwatch could not ask about this call (${e instanceof AppError ? e.message : "an internal error"}); denied`,
    );
  } finally {
    release();
  }
}

/** Records the call's tool.call. Best effort: the decision stands even when the tape refuses it (a pod closed mid-hold). */
function recorder(app: AppContext, who: HookCaller, h: Gated, id: string) {
  return async (gate?: Gate) => {
    try {
      await appendHookEvents(
        app,
        who,
        [
          {
            id,
            type: "tool.call",
            actor: who.memberId,
            sessionId: h.session_id,
            body: { ...toolStarted(h), gate },
          },
        ],
        hookRouteSays(who),
      );
    } catch (e) {
      console.error(
        `podwatch: the gated call ${id} was answered (${gate?.decision ?? "no rule"}) but could not be recorded`,
        e,
      );
    }
  };
}

function policyReason(v: ToolVerdict, tool: string): string {
  if (v.scope === "session")
    return `podwatch: ${tool} on this subject was allowed for this session by a person`;
  const whose = v.scope === "agent" ? "this agent's" : "the pod's";
  return `podwatch: rule "${v.ruleId}" of ${whose} tool policy ${v.action === "allow" ? "allows" : "denies"} ${tool} on ${cut(v.subject, 200)}`;
}

async function finish(
  a: ApprovalAnswer,
  requestId: string,
  ruleId: string | undefined,
  record: (g: Gate) => Promise<void>,
): Promise<GateDecision> {
  const reason = a.byDeadline
    ? `No answer by the deadline: ${a.decision}`
    : (a.reason ?? `${a.decision === "allow" ? "Allowed" : "Denied"} by ${a.by} in podwatch`);
  await record({
    decision: a.decision,
    by: a.byDeadline ? "deadline" : "person",
    requestId,
    ruleId,
    reason: cut(reason, 2000),
  });
  return { decision: a.decision, reason };
}

async function askPerson(
  app: AppContext,
  who: HookCaller,
  state: PodState,
  h: Gated,
  requestId: string,
  verdict: ToolVerdict,
  waitSeconds: number,
  agent: AgentKind,
  again = true,
): Promise<void> {
  const ask = askSettings(state, who.memberId);
  // The deadline falls before the hold ends, so its default reaches the agent; never under the tape's minimum.
  const deadlineMs = Math.max(
    app.knobs.deadlineMinMs + 2000,
    Math.min(ask.minutes * 60_000, holdMs(waitSeconds) - DEADLINE_SLACK_MS),
  );
  const body = {
    requestId,
    toolUseId: toolUseIdOf(h),
    tool: cut(h.tool_name, 200),
    ruleId: verdict.ruleId,
    input: gatedInputText(h.tool_input),
    // A budget's hold says first why a call no rule asks about is held: the person sees the budget and its numbers.
    context: [
      ...budgetHoldLine(state, verdict),
      ...(await recentContext(app.store, who.podId, who.memberId, h.session_id)),
    ],
    // While a budget holds the agent, nobody answering must not let the call run, whichever rule asked.
    deadline: {
      at: new Date(Date.now() + deadlineMs).toISOString(),
      then: "answer" as const,
      answer: askDefault(state, who.memberId),
    },
    // Whose tool names these are: the policy reads an "always allow" in them, the inbox card names the agent.
    ...(agent === "claude-code" ? {} : { agent }),
  };
  try {
    await appendHookEvents(
      app,
      who,
      [
        {
          id: hookEventId(requestId, "ask"),
          type: "tool.approval.requested",
          actor: who.memberId,
          sessionId: h.session_id,
          body,
        },
      ],
      hookRouteSays(who),
    );
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    const now = await app.store.readState(who.podId);
    // Two retries racing: the other one asked; wait on its request.
    if (now?.toolApprovals[requestId]) return;
    // A budget crossed since the state was read: ask again with the default it now requires.
    if (again && now && e.code === "default_is_policy")
      return askPerson(app, who, now, h, requestId, verdict, waitSeconds, agent, false);
    throw e;
  }
}
