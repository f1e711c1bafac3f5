// Gated tools (issue 15): a pod's admins set tool policies; an "ask" holds the agent at the
// call with an inbox item until a person answers (or its deadline does). A person's "allow for
// this session" and "always allow" are remembered here, on the tape.
import { askSettings, literalPattern, toolSubject } from "./tool-policy";
import { dueFrom } from "./deadlines";
import type { AppliedEvent, PodState, ToolApproval } from "./pod-state";
import { at, conflictRule, invalidRule, isApprover, requireMembershipAdmin, type R, type Reducers, with_, without } from "./rules";
import type { ToolRule } from "../events/agent-events";

/** How many answered approvals the state keeps beside the open ones (for hooks that read their answer late). */
const KEEP_ANSWERED = 100;
const MAX_RULES = 100;
/** How many "allow for this session" answers one session keeps. */
const MAX_SESSION_ALLOWS = 100;

export const toolItemId = (requestId: string) => `tool:${requestId}`;

const policySet: R<"agent.policy.set"> = (s, e) => {
  requireMembershipAdmin(s, e.actor);
  const { agentId, rules, ask, unreachable, recordPrompts } = e.body;
  if (agentId !== undefined && s.members[agentId]?.kind !== "agent") throw invalidRule("unknown_agent", `${agentId} is not an agent of this pod`);
  const policy = { ...at(e), rules, ask: ask ?? null, unreachable: unreachable ?? null, by: e.actor };
  const policies = agentId === undefined ? { ...s.policies, pod: policy } : { ...s.policies, agents: with_(s.policies.agents, agentId, policy) };
  return { ...s, policies, recordPrompts: agentId === undefined && recordPrompts !== undefined ? recordPrompts : s.recordPrompts };
};

const approvalRequested: R<"tool.approval.requested"> = (s, e) => {
  const m = Object.hasOwn(s.members, e.actor) ? s.members[e.actor]! : undefined;
  if (m?.kind !== "agent") throw conflictRule("agents_only", `a tool approval is asked by the agent holding the call; ${e.actor} is not an agent of this pod`);
  const b = e.body;
  if (Object.hasOwn(s.toolApprovals, b.requestId)) throw conflictRule("request_exists", `tool approval ${b.requestId} was already asked`);
  if (b.deadline.then !== "answer") throw invalidRule("deadline_answers", `a tool approval's deadline gives an answer (then: "answer", allow or deny)`);
  // The default is the policy's, never the asking agent's own choice.
  const then = askSettings(s, e.actor).then;
  if (b.deadline.answer !== then) throw conflictRule("default_is_policy", `this agent's tool policy says a deadline ${then === "allow" ? "allows" : "denies"}; the request asked "${b.deadline.answer}"`);
  const due = dueFrom(b.deadline, e.receivedAt)!;
  const approval: ToolApproval = { ...at(e), requestId: b.requestId, agentId: e.actor, sessionId: e.sessionId ?? null, toolUseId: b.toolUseId, tool: b.tool, input: b.input, context: b.context, ruleId: b.ruleId ?? null, due, answer: null };
  const id = toolItemId(b.requestId);
  const title = `${m.displayName} asks to run ${b.tool}`;
  const item = { ...at(e), id, kind: "tool_approval" as const, title, subject: { kind: "tool", id: b.requestId }, options: ["allow", "deny"], due, text: b.input, ...(b.context.length ? { recent: b.context } : {}) };
  return { ...s, toolApprovals: with_(s.toolApprovals, b.requestId, approval), inbox: with_(s.inbox, id, item) };
};

/** Applies an answer (a person's or the deadline's) to an open approval: its item leaves the inbox, a remembered allow is kept. */
export function answerApproval(s: PodState, e: AppliedEvent, requestId: string, answer: NonNullable<ToolApproval["answer"]>): PodState {
  const approval = Object.hasOwn(s.toolApprovals, requestId) ? s.toolApprovals[requestId]! : undefined;
  if (!approval) throw invalidRule("unknown_request", `tool approval ${requestId} was not asked in this pod`);
  if (approval.answer) throw conflictRule("already_answered", `tool approval ${requestId} was answered by ${approval.answer.by} (${approval.answer.decision})`);
  let next: PodState = { ...s, toolApprovals: pruneAnswered(with_(s.toolApprovals, requestId, { ...approval, answer })), inbox: without(s.inbox, toolItemId(requestId)) };
  if (answer.decision === "allow" && answer.remember !== "once") next = remember(next, e, approval, answer.remember);
  return next;
}

function remember(s: PodState, e: AppliedEvent, a: ToolApproval, scope: "session" | "always"): PodState {
  const input = safeParse(a.input);
  const cwd = a.sessionId ? (s.sessions[a.sessionId]?.cwd ?? null) : null;
  const subject = toolSubject(a.tool, input, cwd);
  if (scope === "session") {
    if (!a.sessionId) throw invalidRule("no_session", `tool approval ${a.requestId} belongs to no session: answer once or always`);
    const allows = [...(s.sessionAllows[a.sessionId] ?? []), { tool: a.tool, subject }].slice(-MAX_SESSION_ALLOWS);
    return { ...s, sessionAllows: with_(s.sessionAllows, a.sessionId, allows) };
  }
  const rule: ToolRule = { id: `always-${e.seq}`, tool: literalPattern(a.tool), input: literalPattern(subject), outside: false, action: "allow" };
  const current = s.policies.agents[a.agentId];
  // The oldest remembered rule gives way when the policy is full; the admins' own rules never do.
  let rules = [rule, ...(current?.rules ?? [])];
  if (rules.length > MAX_RULES) {
    const oldest = rules.map((r) => r.id).filter((id) => id.startsWith("always-")).at(-1);
    rules = rules.filter((r) => r.id !== oldest).slice(0, MAX_RULES);
  }
  const policy = { ...(current ?? { ask: null, unreachable: null }), ...at(e), rules, by: e.actor };
  return { ...s, policies: { ...s.policies, agents: with_(s.policies.agents, a.agentId, policy) } };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function pruneAnswered(all: Record<string, ToolApproval>): Record<string, ToolApproval> {
  const answered = Object.values(all).filter((a) => a.answer).sort((x, y) => x.answer!.seq - y.answer!.seq);
  if (answered.length <= KEEP_ANSWERED) return all;
  let kept = all;
  for (const a of answered.slice(0, answered.length - KEEP_ANSWERED)) kept = without(kept, a.requestId);
  return kept;
}

const approvalAnswered: R<"tool.approval.answered"> = (s, e) => {
  // A person who may answer, or admin automation (a non-member: only the admin token speaks as one).
  if (Object.hasOwn(s.members, e.actor) && !isApprover(s, e.actor)) throw conflictRule("approvers_only", `tool calls are allowed or denied by the pod's approvers; ${e.actor} is not one`);
  const b = e.body;
  return answerApproval(s, e, b.requestId, { ...at(e), decision: b.decision, by: e.actor, reason: b.reason ?? null, remember: b.remember, byDeadline: false });
};

export const toolGateReducers = {
  "agent.policy.set": policySet,
  "tool.approval.requested": approvalRequested,
  "tool.approval.answered": approvalAnswered,
} satisfies Partial<Reducers>;
