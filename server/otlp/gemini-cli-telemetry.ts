// Gemini CLI's OpenTelemetry logs and metrics (its settings' `telemetry`), as the same events its
// hooks make. Every record names the session in `session.id`. Usage comes from api_response, in
// Gemini's counting: input includes the cached tokens; thoughts are billed as output.
import { toolIdOf, promptDraft, toolDrafts, usageDraft, type RecordMapping } from "./telemetry-kit";

export const geminiCliLogs: Record<string, RecordMapping> = {
  config: (r) => [
    {
      key: "session.started",
      perSession: true,
      type: "session.started",
      body: { via: "gemini-cli", ...(r.name("model") ? { model: r.name("model") } : {}) },
    },
  ],
  user_prompt: (r, ctx) => [promptDraft(r, ctx)],
  tool_call: (r) => {
    const rejected = r.text("decision") === "reject";
    return toolDrafts(r, {
      toolUseId: toolIdOf(r, "call_id", "tool_call_id"),
      tool: r.name("function_name") ?? "tool",
      input: r.summary("function_args"),
      ok: r.bool("success") ?? !r.text("error"),
      error: r.summary("error"),
      output: null,
      durationMs: r.durationMs(),
      denied: rejected ? { by: "person", reason: r.summary("error") ?? "rejected" } : null,
    });
  },
  api_response: (r) => {
    const cached = r.count("cached_content_token_count") ?? 0;
    return [
      usageDraft(
        r.name("model"),
        {
          input: (r.count("input_token_count") ?? 0) - cached,
          output: (r.count("output_token_count") ?? 0) + (r.count("thoughts_token_count") ?? 0),
          cacheRead: cached,
          cacheWrite: 0,
        },
        null,
      ),
    ];
  },
  api_error: (r) => [
    {
      key: "api_error",
      type: "agent.notified",
      body: {
        message: `API error: ${r.summary("error.message", 1900) ?? "unknown"}`,
        notificationType: "api_error",
      },
    },
  ],
  api_request: () => [],
  conversation_finished: () => [
    { key: "session.ended", perSession: true, type: "session.ended", body: { reason: "finished" } },
  ],
};

/**
 * Known, and making no event: the token metrics repeat api_response's usage (they would count
 * twice), and its metrics open no session (its config record does, with the model: agent-telemetry.ts).
 */
export const geminiCliMetrics: Record<string, RecordMapping> = {
  "session.count": () => [],
  "token.usage": () => [],
};
