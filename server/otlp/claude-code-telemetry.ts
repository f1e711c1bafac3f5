// Claude Code's OpenTelemetry events and metrics (CLAUDE_CODE_ENABLE_TELEMETRY=1), as the same
// events its hooks make. Its log records name the session in `session.id`; its api_request carries
// the request's own cost (cost_usd), which is taken as it is. Tool decisions and results carry
// tool_use_id in current releases (older ones do not: a result's call then gets an id of its own).
import {
  toolIdOf,
  promptDraft,
  toolDrafts,
  usageDraft,
  type Draft,
  type RecordMapping,
  type RecordView,
} from "./telemetry-kit";

/** What a tool_decision's `source` says about who decided. */
const byOf = (source: string | null) =>
  source?.startsWith("user") ? ("person" as const) : ("policy" as const);

export const claudeCodeLogs: Record<string, RecordMapping> = {
  user_prompt: (r, ctx) => [promptDraft(r, ctx)],
  tool_result: (r) => {
    const decision = r.text("decision");
    const rejected = decision === "reject";
    return toolDrafts(r, {
      toolUseId: toolIdOf(r, "tool_use_id"),
      tool: r.name("tool_name") ?? "tool",
      input: r.summary("tool_input") ?? r.summary("tool_parameters"),
      ok: r.bool("success") ?? !r.text("error"),
      error: r.summary("error"),
      output: null,
      durationMs: r.durationMs(),
      denied: rejected
        ? { by: byOf(r.text("source")), reason: `rejected (${r.text("source") ?? "claude-code"})` }
        : null,
    });
  },
  tool_decision: (r) => decisionDrafts(r),
  api_request: (r) => [
    usageDraft(
      r.name("model"),
      {
        input: r.count("input_tokens") ?? 0,
        output: r.count("output_tokens") ?? 0,
        cacheRead: r.count("cache_read_tokens") ?? 0,
        cacheWrite: r.count("cache_creation_tokens") ?? 0,
      },
      r.number("cost_usd"),
    ),
  ],
  api_error: (r) => [
    {
      key: "api_error",
      type: "agent.notified",
      body: {
        message: `API error ${r.text("status_code") ?? ""}: ${r.summary("error", 1900) ?? "unknown"}`.replace(
          " :",
          ":",
        ),
        notificationType: "api_error",
      },
    },
  ],
};

/**
 * A decision on a tool call. With its tool_use_id, a refusal opens the call under the same id its
 * result would use, and fails it with the refusal; an accept says nothing
 * the result will not. Without an id, only a refusal is kept, as a call of its own.
 */
function decisionDrafts(r: RecordView): Draft[] {
  if (r.text("decision") !== "reject") return [];
  const source = r.text("source");
  const toolUseId = toolIdOf(r, "tool_use_id");
  return toolDrafts(r, {
    toolUseId,
    tool: r.name("tool_name") ?? "tool",
    input: null,
    ok: false,
    error: `rejected (${source ?? "claude-code"})`,
    output: null,
    durationMs: null,
    denied: { by: byOf(source), reason: `rejected (${source ?? "claude-code"})` },
  });
}

/**
 * Claude Code's metrics. A session's count opens the session; its token and cost metrics repeat
 * what each api_request record already says (the tape would count it twice), so they are read only
 * as known names. Anything else is counted as unmapped.
 */
export const claudeCodeMetrics: Record<string, RecordMapping> = {
  "session.count": () => [],
  "token.usage": () => [],
  "cost.usage": () => [],
};
