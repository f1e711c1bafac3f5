// Gated tools: a pod's admins set tool policies; an "ask" holds the agent at the
// call with an inbox item until a person answers (or its deadline does). A person's "allow for
// this session" and "always allow" are remembered here, on the tape.
import { askSettings, callSubject, inputIsWhole, literalPattern, parseHeldInput } from "./tool-policy";
import { dueFrom } from "./deadlines";
import { budgetHold } from "./reduce-budgets";
import type { AppliedEvent, PodState, ToolApproval } from "./pod-state";
import {
  at,
  conflictRule,
  invalidRule,
  isApprover,
  requireMembershipAdmin,
  type R,
  type Reducers,
  with_,
  without,
} from "./rules";
import type { ToolRule } from "../events/agent-events";

/** How many answered approvals the state keeps beside the open ones (for hooks that read their answer late). */
const KEEP_ANSWERED = 100;
const MAX_RULES = 100;
/** Open approvals one agent may wait on at once (Claude Code runs a few tools in parallel, not dozens). */
export const MAX_OPEN_PER_AGENT = 16;
/** How many "allow for this session" answers one session keeps. */
const MAX_SESSION_ALLOWS = 100;

export const toolItemId = (requestId: string) => `tool:${requestId}`;

/**
 * What a held call's deadline answers when nobody does: the policy's default, but "deny" while a
 * crossed budget holds the agent, whatever rule asked (the hook door asks with this very value).
 * A request may always ask "deny": it is never looser than the policy.
 */
export const askDefault = (s: PodState, agentId: string): "allow" | "deny" =>
  budgetHold(s, agentId) ? "deny" : askSettings(s, agentId).then;

const policySet: R<"agent.policy.set"> = (s, e) => {
  requireMembershipAdmin(s, e.actor);
  const { agentId, rules, ask, unreachable, recordPrompts, idleHold } = e.body;
  if (agentId !== undefined && s.members[agentId]?.kind !== "agent")
    throw invalidRule("unknown_agent", `${agentId} is not an agent of this pod`);
  const policy = {
    ...at(e),
    rules,
    ask: ask ?? null,
    unreachable: unreachable ?? null,
    idleHold: idleHold ?? null,
    by: e.actor,
  };
  const policies =
    agentId === undefined
      ? { ...s.policies, pod: policy }
      : { ...s.policies, agents: with_(s.policies.agents, agentId, policy) };
  return {
    ...s,
    policies,
    recordPrompts: agentId === undefined && recordPrompts !== undefined ? recordPrompts : s.recordPrompts,
  };
};

const approvalRequested: R<"tool.approval.requested"> = (s, e) => {
  const m = Object.hasOwn(s.members, e.actor) ? s.members[e.actor]! : undefined;
  if (m?.kind !== "agent")
    throw conflictRule(
      "agents_only",
      `a tool approval is asked by the agent holding the call; ${e.actor} is not an agent of this pod`,
    );
  const b = e.body;
  if (Object.hasOwn(s.toolApprovals, b.requestId))
    throw conflictRule("request_exists", `tool approval ${b.requestId} was already asked`);
  if (b.deadline.then !== "answer")
    throw invalidRule(
      "deadline_answers",
      `a tool approval's deadline gives an answer (then: "answer", allow or deny)`,
    );
  // The default and the longest wait are the policy's, never the asking agent's own choice.
  const ask = askSettings(s, e.actor);
  const then = askDefault(s, e.actor);
  if (b.deadline.answer !== then && b.deadline.answer !== "deny")
    throw conflictRule(
      "default_is_policy",
      `this agent's ${then === ask.then ? "tool policy" : "crossed budget"} says a deadline ${then === "allow" ? "allows" : "denies"}; the request asked "${b.deadline.answer}"`,
    );
  const due = dueFrom(b.deadline, e.receivedAt)!;
  if (Date.parse(due.at) - Date.parse(e.receivedAt) > ask.minutes * 60_000 + 1000)
    throw conflictRule(
      "deadline_is_policy",
      `this agent's tool policy gives a person at most ${ask.minutes} minutes to answer`,
    );
  // Each open approval is kept whole in the pod's state (and its inbox): an agent holds only so many at once.
  const open = Object.values(s.toolApprovals).filter((x) => x.agentId === e.actor && !x.answer).length;
  if (open >= MAX_OPEN_PER_AGENT)
    throw conflictRule(
      "too_many_open_approvals",
      `${e.actor} already waits on ${open} tool approvals; answer or let them pass their deadlines first`,
    );
  const approval: ToolApproval = {
    ...at(e),
    requestId: b.requestId,
    agentId: e.actor,
    sessionId: e.sessionId ?? null,
    toolUseId: b.toolUseId,
    tool: b.tool,
    input: b.input,
    context: b.context,
    ruleId: b.ruleId ?? null,
    ...(b.agent ? { agent: b.agent } : {}),
    due,
    answer: null,
  };
  const id = toolItemId(b.requestId);
  const title = `${m.displayName} asks to run ${b.tool}`;
  const item = {
    ...at(e),
    id,
    kind: "tool_approval" as const,
    title,
    subject: { kind: "tool", id: b.requestId },
    options: ["allow", "deny"],
    due,
    text: b.input,
    ...(b.context.length ? { recent: b.context } : {}),
  };
  return {
    ...s,
    toolApprovals: with_(s.toolApprovals, b.requestId, approval),
    inbox: with_(s.inbox, id, item),
  };
};

/** Applies an answer (a person's or the deadline's) to an open approval: its item leaves the inbox, a remembered allow is kept. */
export function answerApproval(
  s: PodState,
  e: AppliedEvent,
  requestId: string,
  answer: NonNullable<ToolApproval["answer"]>,
): PodState {
  const approval = Object.hasOwn(s.toolApprovals, requestId) ? s.toolApprovals[requestId]! : undefined;
  if (!approval) throw invalidRule("unknown_request", `tool approval ${requestId} was not asked in this pod`);
  if (approval.answer)
    throw conflictRule(
      "already_answered",
      `tool approval ${requestId} was answered by ${approval.answer.by} (${approval.answer.decision})`,
    );
  if (answer.decision === "allow" && !inputIsWhole(approval.tool, approval.input))
    throw conflictRule(
      "call_not_whole",
      `tool approval ${requestId}'s call was too long to show whole (its ${approval.tool === "Bash" ? "command" : "input"} was cut): it may be denied, not allowed`,
    );
  let next: PodState = {
    ...s,
    toolApprovals: pruneAnswered(with_(s.toolApprovals, requestId, { ...approval, answer })),
    inbox: without(s.inbox, toolItemId(requestId)),
  };
  if (answer.decision === "allow" && answer.remember !== "once")
    next = remember(next, e, approval, answer.remember);
  return next;
}

function remember(s: PodState, e: AppliedEvent, a: ToolApproval, scope: "session" | "always"): PodState {
  const input = parseHeldInput(a.input);
  const cwd = a.sessionId && Object.hasOwn(s.sessions, a.sessionId) ? s.sessions[a.sessionId]!.cwd : null;
  const subject = callSubject(a.tool, input, cwd, a.agent);
  // Only a call an allow rule could admit is remembered: one whose input was cut, or that is more than
  // programs run plainly (a variable set, a wrapper, `$(…)`, eval…), is allowed once only.
  if (input === undefined || subject.plain === null)
    throw invalidRule(
      "remember_opaque",
      `tool approval ${a.requestId} ${input === undefined ? "was cut" : `is not plain commands (${subject.why})`}: allow it once`,
    );
  if (scope === "session") {
    if (!a.sessionId)
      throw invalidRule(
        "no_session",
        `tool approval ${a.requestId} belongs to no session: answer once or always`,
      );
    // The exact command line (or absolute path, or input): what the person read, not a pattern.
    const allows = [...(s.sessionAllows[a.sessionId] ?? []), { tool: a.tool, subject: subject.key }].slice(
      -MAX_SESSION_ALLOWS,
    );
    return { ...s, sessionAllows: with_(s.sessionAllows, a.sessionId, allows) };
  }
  // Exactly this call: each of a shell line's commands as written, each path where it is (absolute), else the input.
  const exact = subject.exact.map(literalPattern).join("|");
  const rule: ToolRule = {
    id: `always-${e.seq}`,
    tool: literalPattern(a.tool),
    input: exact.slice(0, 1000),
    outside: false,
    action: "allow",
  };
  const current = Object.hasOwn(s.policies.agents, a.agentId) ? s.policies.agents[a.agentId] : undefined;
  // The oldest remembered rule gives way when the policy is full; the admins' own rules never do.
  let rules = [rule, ...(current?.rules ?? [])];
  if (rules.length > MAX_RULES) {
    const oldest = rules
      .map((r) => r.id)
      .filter((id) => id.startsWith("always-"))
      .at(-1);
    rules = rules.filter((r) => r.id !== oldest).slice(0, MAX_RULES);
  }
  const policy = { ...(current ?? { ask: null, unreachable: null }), ...at(e), rules, by: e.actor };
  return { ...s, policies: { ...s.policies, agents: with_(s.policies.agents, a.agentId, policy) } };
}

function pruneAnswered(all: Record<string, ToolApproval>): Record<string, ToolApproval> {
  const answered = Object.values(all)
    .filter((a) => a.answer)
    .sort((x, y) => x.answer!.seq - y.answer!.seq);
  if (answered.length <= KEEP_ANSWERED) return all;
  let kept = all;
  for (const a of answered.slice(0, answered.length - KEEP_ANSWERED)) kept = without(kept, a.requestId);
  return kept;
}

const approvalAnswered: R<"tool.approval.answered"> = (s, e) => {
  // A person who may answer, or admin automation (a non-member: only the admin token speaks as one).
  if (Object.hasOwn(s.members, e.actor) && !isApprover(s, e.actor))
    throw conflictRule(
      "approvers_only",
      `tool calls are allowed or denied by the pod's approvers; ${e.actor} is not one`,
    );
  const b = e.body;
  return answerApproval(s, e, b.requestId, {
    ...at(e),
    decision: b.decision,
    by: e.actor,
    reason: b.reason ?? null,
    remember: b.remember,
    byDeadline: false,
  });
};

export const toolGateReducers = {
  "agent.policy.set": policySet,
  "tool.approval.requested": approvalRequested,
  "tool.approval.answered": approvalAnswered,
} satisfies Partial<Reducers>;
