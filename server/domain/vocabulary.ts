// The words of the protocol as plain lists, free of zod: what the browser
// imports (filters, selects; through server/wire/vocabulary.ts) instead of the event
// schemas, so the client bundle carries no schema. The domain's schemas build their enums from these lists,
// and server/domain/events/event-schemas.ts checks that every event type here
// has its schema, so nothing is spelled twice.

/** Work-pod roles: docs/protocol/roles.md#the-roles. */
export const ROLES = [
  "implementer",
  "reviewer",
  "orchestrator",
  "chair",
  "contract_guardian",
  "cost_controller",
  "librarian",
  "researcher",
  "patchmaker",
  "verifier",
  "spectator",
] as const;
export type Role = (typeof ROLES)[number];

/** What a person may do on a pod: watch, answer and decide, or also manage it. */
export const ACCESS_LEVELS = ["viewer", "approver", "admin"] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** Task statuses (a plan.json may also say "completed", read as done: docs/protocol/plan-and-handoffs.md#planjson). */
export const TASK_STATES = [
  "pending",
  "in_progress",
  "in_review",
  "changes_requested",
  "done",
  "rejected",
  "blocked",
  "cancelled",
] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** Typed notes: docs/protocol/runs-and-notes.md#note-kinds. */
export const NOTE_KINDS = [
  "OBSERVATION",
  "HYPOTHESIS",
  "HYPERTHESIS",
  "CONJECTURE",
  "STATUS",
  "REQUEST_HELP",
  "REQUEST_VERIFY",
] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

/** docs/protocol/decisions-and-escalations.md#tie-breakers, in order: text/spec → safety → determinism → reversibility → timebox; spike for factual disagreements. */
export const TIE_BREAKERS = [
  "text_spec",
  "safety",
  "determinism",
  "reversibility",
  "timebox",
  "spike",
] as const;
export type TieBreaker = (typeof TIE_BREAKERS)[number];

/** What a decision is about, and what it says (docs/protocol/decisions-and-escalations.md#decisions). */
export const DECISION_SUBJECTS = ["task", "milestone", "plan", "job", "run"] as const;
export type DecisionSubject = (typeof DECISION_SUBJECTS)[number];
export const DECISION_VERDICTS = ["approve", "reject", "accept", "block"] as const;
export type DecisionVerdict = (typeof DECISION_VERDICTS)[number];

/** Every tape event type, in the order the tape's filter offers them. */
export const EVENT_TYPES = [
  "pod.scope_agreed",
  "pod.started",
  "pod.paused",
  "pod.resumed",
  "pod.closed",
  "member.joined",
  "access.granted",
  "access.revoked",
  "role.assigned",
  "role.rotated",
  "plan.imported",
  "task.added",
  "task.updated",
  "task.review_requested",
  "review",
  "checkpoint",
  "note",
  "decision",
  "plan.review",
  "escalation",
  "escalation.answered",
  "handoff",
  "run.started",
  "run.verified",
  "run.committed",
  "run.discarded",
  "evidence.bundle",
  "workcell.opened",
  "workcell.proof",
  "job.posted",
  "job.funded",
  "job.delivered",
  "job.settled",
  "budget.set",
  "budget.exceeded",
  "deadline.passed",
  "agent.stale",
  "notice.posted",
  "notice.dismissed",
  "session.started",
  "session.ended",
  "prompt.submitted",
  "tool.call",
  "agent.notified",
  "subagent",
  "session.compacted",
  "usage.reported",
  "agent.policy.set",
  "tool.approval.requested",
  "tool.approval.answered",
  "session.steered",
  "session.steer.delivered",
  "session.idle.held",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The server itself, on the tape: deadline outcomes, staleness, notices. No client (agent
 * token, admin token, person) may speak as it, and no member may be named so.
 */
export const SYSTEM_ACTOR = "podwatch";
/** Event types only the server appends, as SYSTEM_ACTOR. */
export const SYSTEM_EVENT_TYPES = [
  "deadline.passed",
  "agent.stale",
  "notice.posted",
] as const satisfies readonly EventType[];

/** What happens when a deadline passes: a reminder only, a rejection, or a default answer. */
export const DEADLINE_THEN = ["remind", "reject", "answer"] as const;
export type DeadlineThen = (typeof DEADLINE_THEN)[number];
export const DEADLINE_OUTCOMES = ["answered", "rejected", "accepted", "approved", "reminded"] as const;
export type DeadlineOutcome = (typeof DEADLINE_OUTCOMES)[number];

/** Marks where podwatch cut a long text inside a held call's input (the rest of the input stays whole JSON). */
export const INPUT_CUT_MARK = "… [cut by podwatch]";

/** What a tool policy's rule says of a call. */
export const TOOL_ACTIONS = ["allow", "deny", "ask"] as const;
export type ToolAction = (typeof TOOL_ACTIONS)[number];
/** How far a person's "allow" reaches: this call, the rest of the session, or always (a new rule). */
export const TOOL_ANSWER_SCOPES = ["once", "session", "always"] as const;
export type ToolAnswerScope = (typeof TOOL_ANSWER_SCOPES)[number];
/** A tool call's two ends on the tape, joined by its toolUseId. */
/** The agent programs whose own hooks report to podwatch; a session's `via` names one (or another client). */
export const AGENT_KINDS = ["claude-code", "codex", "gemini-cli"] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

export const TOOL_CALL_PHASES = ["started", "succeeded", "failed"] as const;
export type ToolCallPhase = (typeof TOOL_CALL_PHASES)[number];
/** The event types an agent session reports (the tape groups and filters them as one family). */
export const SESSION_EVENT_TYPES = [
  "session.started",
  "session.ended",
  "prompt.submitted",
  "tool.call",
  "agent.notified",
  "subagent",
  "session.compacted",
  "usage.reported",
] as const satisfies readonly EventType[];

/** What a person may tell a running agent session from the control room: a message, an interrupt, a word to an idle one. */
export const STEER_ACTS = ["message", "interrupt", "resume"] as const;
export type SteerAct = (typeof STEER_ACTS)[number];

/** What a budget counts: tokens in and out, money, wall time, tool calls. */
export const BUDGET_METRICS = ["tokens", "cost_usd", "wall_minutes", "tool_calls"] as const;
export type BudgetMetric = (typeof BUDGET_METRICS)[number];
/** What crossing a budget does, besides the inbox item: nothing more, the next gated tool call asks a person, or the pod pauses. */
export const BUDGET_ACTIONS = ["notify", "hold_tools", "pause_pod"] as const;
export type BudgetAction = (typeof BUDGET_ACTIONS)[number];
/** How each metric's amounts are named to a person (the inbox, the hook's reason, the budgets panel). */
export const BUDGET_UNITS: Record<BudgetMetric, string> = {
  tokens: "tokens",
  cost_usd: "USD",
  wall_minutes: "minutes",
  tool_calls: "tool calls",
};
/** A budget's amount as a person reads it: whole numbers as they are, money and minutes to two decimals. */
export const budgetAmount = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

/**
 * The tools a pod's policy names across agents (server/domain/state/tool-vocabulary.ts reads each
 * agent's calls as them), and what each agent calls them. Codex's apply_patch writes and edits.
 */
export const COMMON_TOOLS = ["shell", "read", "write", "edit"] as const;
export type CommonTool = (typeof COMMON_TOOLS)[number];
export const COMMON_TOOL_NAMES: Record<CommonTool, Record<AgentKind, readonly string[]>> = {
  shell: { "claude-code": ["Bash"], codex: ["Bash"], "gemini-cli": ["run_shell_command"] },
  read: {
    "claude-code": ["Read", "Grep", "Glob", "LS"],
    codex: [],
    "gemini-cli": ["read_file", "read_many_files", "grep_search", "glob", "list_directory"],
  },
  write: { "claude-code": ["Write"], codex: ["apply_patch"], "gemini-cli": ["write_file"] },
  edit: {
    "claude-code": ["Edit", "MultiEdit", "NotebookEdit"],
    codex: ["apply_patch"],
    "gemini-cli": ["replace"],
  },
};
