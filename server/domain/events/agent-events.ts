// What the agents people really run report without code: Claude Code's hooks and
// OpenTelemetry's GenAI spans become sessions, prompts, tool calls, usage; and a pod's admins
// gate tools (allow / deny / ask a human). The session an event belongs to is the envelope's
// `sessionId`. Every text here is a bounded summary: the adapters cut what they are given.
import { z } from "zod";
import { deadline, ev, ZLine } from "./event-kit";
import { isReservedName, ZId } from "./seed-formats";
import { AGENT_KINDS, STEER_ACTS, TOOL_ACTIONS, TOOL_ANSWER_SCOPES, TOOL_CALL_PHASES } from "../vocabulary";

/** How long a summary of a tool's input or output, a prompt or a message may be on the tape. */
export const SUMMARY_MAX = 2000;
/** A gated call's full input, as the person deciding sees it. */
export const GATED_INPUT_MAX = 20000;
const ZSummary = z.string().max(SUMMARY_MAX);
/** A tool's, a model's or a client's name: also a key of usage and signals, so never a built-in property name. */
const ZName = z
  .string()
  .min(1)
  .max(200)
  .refine((n) => !isReservedName(n), { message: "is a reserved name" });

// --- sessions ---
export const ZSessionStarted = ev(
  "session.started",
  z.object({
    /** Who runs the agent: "claude-code", "otel" (an OpenTelemetry exporter), or another client's name. */
    via: ZName,
    source: z.string().max(50).optional(), // startup | resume | clear | compact
    model: ZName.optional(),
    cwd: z.string().max(1000).optional(),
    permissionMode: z.string().max(50).optional(),
    /** A subagent's session: the session that runs it, and the subagent's type ("general-purpose", …). */
    parentSessionId: ZId.optional(),
    agentType: ZName.optional(),
  }),
);
export const ZSessionEnded = ev("session.ended", z.object({ reason: z.string().max(200).optional() }));
/** A person's prompt: `text` is absent when the pod keeps prompt text out (then only its length is kept). */
export const ZPromptSubmitted = ev(
  "prompt.submitted",
  z.object({ text: ZSummary.optional(), chars: z.number().int().min(0) }),
);

// --- tool calls: pre and post are two events joined by toolUseId ---
/**
 * `started` (Claude Code's PreToolUse), `succeeded` / `failed` (PostToolUse / PostToolUseFailure).
 * `gate`: what the tool policy said, when it said anything but a silent allow — `by` the policy, a
 * person's answer, the deadline's default, or the hook's own rule when podwatch was unreachable.
 */
export const ZToolCall = ev(
  "tool.call",
  z.object({
    toolUseId: ZId,
    tool: ZName,
    phase: z.enum(TOOL_CALL_PHASES),
    input: ZSummary.optional(),
    output: ZSummary.optional(),
    error: ZSummary.optional(),
    durationMs: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600_000)
      .optional(),
    interrupted: z.boolean().optional(),
    gate: z
      .object({
        decision: z.enum(["allow", "deny"]),
        by: z.enum(["policy", "person", "deadline", "unreachable"]),
        ruleId: ZId.optional(),
        requestId: ZId.optional(),
        reason: ZSummary.optional(),
      })
      .optional(),
  }),
);

// --- what else a session says ---
export const ZAgentNotified = ev(
  "agent.notified",
  z.object({
    message: ZLine,
    title: z.string().max(200).optional(),
    notificationType: z.string().max(100).optional(),
  }),
);
export const ZSubagent = ev(
  "subagent",
  z.object({
    phase: z.enum(["started", "stopped"]),
    agentId: ZName,
    agentType: ZName.optional(),
    summary: ZSummary.optional(),
  }),
);
export const ZSessionCompacted = ev("session.compacted", z.object({ trigger: z.string().min(1).max(50) }));
const ZTokens = z.number().int().min(0).max(1e12);
/** Tokens (and cost, when known) since the last report for this session and model: the server adds them up. */
export const ZUsageReported = ev(
  "usage.reported",
  z.object({
    model: ZName,
    inputTokens: ZTokens.default(0),
    outputTokens: ZTokens.default(0),
    cacheReadTokens: ZTokens.default(0),
    cacheWriteTokens: ZTokens.default(0),
    costUsd: z.number().min(0).max(1e9).optional(),
    source: z.enum(["transcript", "otel", "agent"]).default("agent"),
  }),
);

// --- gated tools ---
/**
 * One rule: `tool` and `input` are patterns — alternatives split on "|", `*` any run of
 * characters, `?` one — matched against the whole tool name and against the input's subject
 * (Bash: the command or any of its `&&`/`;`/`|` parts; file tools: the path, relative to the
 * session's cwd; web tools: the URL; anything else: its input as JSON). `outside`: the rule
 * matches when the subject does NOT match `input` (e.g. Write outside `src/*`).
 */
export const ZToolRule = z
  .object({
    id: ZId,
    tool: z.string().min(1).max(500),
    input: z.string().min(1).max(1000).optional(),
    outside: z.boolean().default(false),
    action: z.enum(TOOL_ACTIONS),
  })
  .refine((r) => !r.outside || r.input !== undefined, {
    message: "outside needs an input pattern",
    path: ["outside"],
  });
export type ToolRule = z.output<typeof ZToolRule>;

/**
 * How long an agent's Stop hook is held, waiting for a person's Resume, when its policy sets
 * `idleHold` (0: off). The cap stays below the wait of the Stop hook the installer writes
 * (agent/hooks/settings-snippet.ts: 600 s, the server answering by 535 s), so the hold always
 * ends with an answer the agent still reads.
 */
export const IDLE_HOLD_SECONDS = { max: 520, default: 300 } as const;
/** How long a person has to answer an "ask", and what the deadline decides. */
export const ASK_MINUTES = { min: 1, max: 1440, default: 5 } as const;
/**
 * A pod's (no `agentId`) or one agent's tool policy, replacing the previous one for that scope.
 * The agent's rules are tried first, then the pod's; the first rule that matches decides; none
 * matching allows. `ask`: the deadline of an "ask" and its default. `unreachable`: what the
 * command hook does when podwatch cannot be reached (open: allow, closed: deny).
 * `recordPrompts` (pod only): false keeps prompt text off the tape. `idleHold`: seconds the agent's
 * Stop hook waits for a person's Resume (0: off; an agent's own setting wins over the pod's).
 */
export const ZAgentPolicySet = ev(
  "agent.policy.set",
  z
    .object({
      agentId: ZId.optional(),
      rules: z
        .array(ZToolRule)
        .max(100)
        .refine((rules) => new Set(rules.map((r) => r.id)).size === rules.length, {
          message: "each rule id may appear once",
        }),
      ask: z
        .object({
          minutes: z.number().int().min(ASK_MINUTES.min).max(ASK_MINUTES.max).default(ASK_MINUTES.default),
          then: z.enum(["allow", "deny"]).default("deny"),
        })
        .optional(),
      unreachable: z.enum(["open", "closed"]).optional(),
      recordPrompts: z.boolean().optional(),
      idleHold: z.number().int().min(0).max(IDLE_HOLD_SECONDS.max).optional(),
    })
    .refine((b) => b.agentId === undefined || b.recordPrompts === undefined, {
      message: "recordPrompts is the pod's setting, not one agent's",
      path: ["recordPrompts"],
    }),
);

/** An agent is held at a gated tool call until a person (or the deadline) answers. */
export const ZToolApprovalRequested = ev(
  "tool.approval.requested",
  z.object({
    requestId: ZId,
    toolUseId: ZId,
    tool: ZName,
    /** The call's whole input as JSON text, cut at GATED_INPUT_MAX. */
    input: z.string().max(GATED_INPUT_MAX),
    /** What the agent was doing: its latest prompt, tool calls, message (a few lines). */
    context: z.array(ZLine).max(12).default([]),
    ruleId: ZId.optional(),
    deadline: deadline(["allow", "deny"]),
    /** Whose hook holds the call, so its tool names and input are read as that agent's; Claude Code when absent. */
    agent: z.enum(AGENT_KINDS).optional(),
  }),
);
/** A person's answer. `remember`: "session" allows this tool on this subject for the rest of the session; "always" adds the allow rule to the agent's policy. */
export const ZToolApprovalAnswered = ev(
  "tool.approval.answered",
  z
    .object({
      requestId: ZId,
      decision: z.enum(["allow", "deny"]),
      reason: z.string().max(2000).optional(),
      remember: z.enum(TOOL_ANSWER_SCOPES).default("once"),
    })
    .refine((b) => b.decision === "allow" || b.remember === "once", {
      message: "only an allow is remembered",
      path: ["remember"],
    }),
);

// --- steering: a person's word to a running session, delivered at the agent's next hook ---
/** How long a steering message may be: what an agent reads as context, not a document. */
export const STEER_TEXT_MAX = 2000;
/** A person (an approver) tells a session something: `text` is the message, or the interrupt's reason. */
export const ZSessionSteered = ev(
  "session.steered",
  z.object({
    steerId: ZId,
    sessionId: ZId,
    act: z.enum(STEER_ACTS),
    text: z.string().trim().min(1).max(STEER_TEXT_MAX),
  }),
);
/** The agent's hook took a steer (`via`: the hook event that carried it; `hookId`: which hook call, so its retry gets it again). */
export const ZSessionSteerDelivered = ev(
  "session.steer.delivered",
  z.object({ steerId: ZId, sessionId: ZId, via: z.string().min(1).max(50), hookId: ZId }),
);

/**
 * The agent's Stop hook is held until `until`, waiting for a person's Resume (its policy's
 * `idleHold`): the turn ended, and the session waits for a person rather than a prompt.
 */
export const ZSessionIdleHeld = ev(
  "session.idle.held",
  z.object({ sessionId: ZId, until: z.iso.datetime({ offset: true }) }),
);

export const AGENT_EVENT_SCHEMAS = [
  ZSessionStarted,
  ZSessionEnded,
  ZPromptSubmitted,
  ZToolCall,
  ZAgentNotified,
  ZSubagent,
  ZSessionCompacted,
  ZUsageReported,
  ZAgentPolicySet,
  ZToolApprovalRequested,
  ZToolApprovalAnswered,
  ZSessionSteered,
  ZSessionSteerDelivered,
  ZSessionIdleHeld,
] as const;
