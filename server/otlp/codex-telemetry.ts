// OpenAI Codex's OpenTelemetry log events (its config's [otel] section), as the same events its
// hooks make. Its records name the session in `conversation.id` and the model in `model`; usage
// comes from the stream's response.completed event (codex.sse_event), in OpenAI's counting: input
// includes the cached tokens, output the reasoning tokens.
import { toolIdOf, promptDraft, toolDrafts, usageDraft, type RecordMapping } from "./telemetry-kit";

const ALLOWED = new Set(["approved", "approved_for_session", "approved_execpolicy_amendment", "accept"]);

export const codexLogs: Record<string, RecordMapping> = {
  conversation_starts: (r) => [
    {
      key: "session.started",
      perSession: true,
      type: "session.started",
      body: { via: "codex", ...(r.name("model") ? { model: r.name("model") } : {}) },
    },
  ],
  user_prompt: (r, ctx) => [promptDraft(r, ctx)],
  tool_decision: (r) => {
    const decision = r.text("decision");
    if (!decision || ALLOWED.has(decision)) return [];
    const source = r.text("source");
    const reason = `${decision} (${source ?? "codex"})`;
    return toolDrafts(r, {
      toolUseId: toolIdOf(r, "call_id"),
      tool: r.name("tool_name") ?? "tool",
      input: null,
      ok: false,
      error: reason,
      output: null,
      durationMs: null,
      denied: { by: source === "user" ? "person" : "policy", reason },
    });
  },
  tool_result: (r) =>
    toolDrafts(r, {
      toolUseId: toolIdOf(r, "call_id"),
      tool: r.name("tool_name") ?? "tool",
      input: r.summary("arguments"),
      ok: r.bool("success") ?? true,
      error: r.summary("output"),
      output: r.summary("output"),
      durationMs: r.durationMs(),
    }),
  sse_event: (r) => {
    if (r.text("event.kind") !== "response.completed") return [];
    const input = r.count("input_token_count");
    const output = r.count("output_token_count");
    if (input === null && output === null) return [];
    const cached = r.count("cached_token_count") ?? 0;
    const written = r.count("cache_write_token_count") ?? 0;
    return [
      usageDraft(
        r.name("model") ?? r.name("slug"),
        {
          input: (input ?? 0) - cached - written,
          output: output ?? 0,
          cacheRead: cached,
          cacheWrite: written,
        },
        null,
      ),
    ];
  },
  api_request: () => [],
};

/** Codex's metrics say nothing the log events do not; the token counts would count twice. */
export const codexMetrics: Record<string, RecordMapping> = {};
