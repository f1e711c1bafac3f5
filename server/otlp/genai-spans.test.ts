import { describe, expect, it } from "vitest";
import { ZEventInput } from "../wire/events";
import { SUMMARY_MAX } from "../domain/events/agent-events";
import { mapGenAiSpans } from "./genai-spans";
import type { AttrValue, OtlpSpan } from "./otlp-span";

const ctx = { podId: "pod-1", actor: "researcher" };
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const T0 = 1_760_000_000_000n * 1_000_000n; // ns

function span(name: string, attrs: Record<string, AttrValue>, over: Partial<OtlpSpan> = {}): OtlpSpan {
  return {
    traceId: TRACE,
    spanId: over.spanId ?? "00f067aa0ba902b7",
    parentSpanId: null,
    name,
    startNs: T0,
    endNs: T0 + 1_500_000_000n,
    attributes: new Map(Object.entries({ "service.name": "travel-agent", ...attrs })),
    status: "unset",
    statusMessage: "",
    events: [],
    ...over,
  };
}

/** What an agent framework following the conventions exports for one run: the agent, a tool, a model call. */
const agentRun = [
  span(
    "invoke_agent Travel Planner",
    {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "Travel Planner",
      "gen_ai.conversation.id": "conv_5j66UpCpwteGg4YSxUnt7lPY",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.usage.input_tokens": 900, // the run's total: not counted again
    },
    { spanId: "1111111111111111", endNs: T0 + 9_000_000_000n },
  ),
  span(
    "execute_tool get_weather",
    {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": "call_VSPygqKTWdrhaFErNvMV18Yl",
      "gen_ai.tool.call.arguments": { location: "Paris", unit: "celsius" },
      "gen_ai.tool.call.result": "rainy, 57°F",
    },
    {
      spanId: "2222222222222222",
      parentSpanId: "1111111111111111",
      startNs: T0 + 2_000_000_000n,
      endNs: T0 + 2_250_000_000n,
    },
  ),
  span(
    "chat gpt-4o",
    {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.response.model": "gpt-4o-2024-08-06",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 45,
      "gen_ai.usage.cache_read.input_tokens": 100,
    },
    { spanId: "3333333333333333", parentSpanId: "1111111111111111" },
  ),
];

describe("GenAI spans as session events", () => {
  it("an agent run: the session, its tool call joined by the call id, and the model's usage", () => {
    const { mapped, ignored } = mapGenAiSpans(agentRun, ctx);
    expect(ignored).toEqual([]);
    const events = mapped.flatMap((m) => m.events);
    expect(events.map((e) => [e.type, (e.body as { phase?: string }).phase])).toEqual([
      ["session.started", undefined],
      ["session.ended", undefined],
      ["tool.call", "started"],
      ["tool.call", "succeeded"],
      ["usage.reported", undefined],
    ]);
    for (const e of events) {
      expect(e.actor).toBe("researcher");
      expect(e.sessionId).toBe("conv_5j66UpCpwteGg4YSxUnt7lPY");
      expect(ZEventInput.safeParse(e).success).toBe(true);
    }
    expect(events[0]).toMatchObject({
      ts: "2025-10-09T08:53:20.000Z",
      body: { via: "otel", model: "gpt-4o" },
    });
    expect(events[1]).toMatchObject({ ts: "2025-10-09T08:53:29.000Z", body: { reason: "completed" } });
    expect(events[2]!.body).toEqual({
      toolUseId: "call_VSPygqKTWdrhaFErNvMV18Yl",
      tool: "get_weather",
      phase: "started",
      input: '{"location":"Paris","unit":"celsius"}',
    });
    expect(events[3]!.body).toEqual({
      toolUseId: "call_VSPygqKTWdrhaFErNvMV18Yl",
      tool: "get_weather",
      phase: "succeeded",
      output: "rainy, 57°F",
      durationMs: 250,
    });
    // Cached tokens are inside input_tokens in the conventions, beside it on our tape.
    expect(events[4]!.body).toEqual({
      model: "gpt-4o-2024-08-06",
      source: "otel",
      inputTokens: 20,
      outputTokens: 45,
      cacheReadTokens: 100,
      cacheWriteTokens: 0,
    });
  });

  it("ids are derived from the pod, the member, the trace, the span and the kind: the same export maps to the same ids", () => {
    const ids = (c: typeof ctx) =>
      mapGenAiSpans(agentRun, c).mapped.flatMap((m) => m.events.map((e) => e.id));
    expect(ids(ctx)).toEqual(ids({ ...ctx }));
    expect(new Set(ids(ctx)).size).toBe(5);
    expect(ids({ ...ctx, podId: "pod-2" })).not.toContain(ids(ctx)[0]);
    expect(ids({ ...ctx, actor: "other" })).not.toContain(ids(ctx)[0]);
  });

  it("a failed tool: status ERROR, its message or the exception event as the error; the span id when there is no call id", () => {
    const byStatus = span(
      "execute_tool search",
      { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search" },
      { status: "error", statusMessage: "rate limited by the search API" },
    );
    const byException = span(
      "execute_tool",
      { "gen_ai.operation.name": "execute_tool" },
      {
        spanId: "4444444444444444",
        status: "error",
        events: [
          {
            name: "exception",
            attributes: new Map<string, AttrValue>([
              ["exception.type", "TimeoutError"],
              ["exception.message", "no answer in 30 s"],
            ]),
          },
        ],
      },
    );
    const [a, b] = mapGenAiSpans([byStatus, byException], ctx).mapped.map((m) => m.events[1]!.body);
    expect(a).toMatchObject({
      toolUseId: "00f067aa0ba902b7",
      tool: "search",
      phase: "failed",
      error: "rate limited by the search API",
      durationMs: 1500,
    });
    expect(b).toMatchObject({
      toolUseId: "4444444444444444",
      tool: "tool",
      phase: "failed",
      error: "TimeoutError: no answer in 30 s",
    });
  });

  it("without a conversation id the session is the trace; a child span takes the conversation its trace's agent span names", () => {
    const alone = mapGenAiSpans(
      [
        span("chat claude", {
          "gen_ai.operation.name": "chat",
          "gen_ai.request.model": "claude-sonnet-4-5",
          "gen_ai.usage.output_tokens": 7,
        }),
      ],
      ctx,
    );
    expect(alone.mapped[0]!.events[0]!.sessionId).toBe(TRACE);
    const child = mapGenAiSpans(
      agentRun
        .slice(0, 2)
        .map((s, i) =>
          i === 1
            ? { ...s, attributes: new Map([...s.attributes].filter(([k]) => k !== "gen_ai.conversation.id")) }
            : s,
        ),
      ctx,
    );
    expect(child.mapped[1]!.events[0]!.sessionId).toBe("conv_5j66UpCpwteGg4YSxUnt7lPY");
  });

  it("older names: gen_ai.system and prompt/completion tokens, no operation name (OpenLLMetry's LLM spans)", () => {
    const old = span("openai.chat", {
      "gen_ai.system": "openai",
      "gen_ai.request.model": "gpt-4",
      "gen_ai.usage.prompt_tokens": 33,
      "gen_ai.usage.completion_tokens": 11,
      "llm.request.type": "chat",
    });
    expect(mapGenAiSpans([old], ctx).mapped[0]!.events[0]!.body).toEqual({
      model: "gpt-4",
      source: "otel",
      inputTokens: 33,
      outputTokens: 11,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it("create_agent starts a session; an agent span in error ends it with the reason", () => {
    const created = mapGenAiSpans(
      [
        span("create_agent Helper", {
          "gen_ai.operation.name": "create_agent",
          "gen_ai.request.model": "gpt-4o",
        }),
      ],
      ctx,
    );
    expect(created.mapped[0]!.events.map((e) => e.type)).toEqual(["session.started"]);
    const failed = mapGenAiSpans(
      [
        span(
          "invoke_agent",
          { "gen_ai.operation.name": "invoke_agent" },
          { status: "error", statusMessage: "max turns exceeded" },
        ),
      ],
      ctx,
    );
    expect(failed.mapped[0]!.events[1]!.body).toEqual({ reason: "error: max turns exceeded" });
  });

  it("spans with nothing to keep are ignored: HTTP, database, a model call without usage, a span merely named like one", () => {
    const spans = [
      span("GET /api/forecast", {
        "http.request.method": "GET",
        "url.full": "https://example.test/api/forecast",
      }),
      span("SELECT trips", { "db.system.name": "postgresql" }),
      span("chat gpt-4o", { "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o" }),
      span("chat", { "http.route": "/chat" }),
    ];
    const { mapped, ignored } = mapGenAiSpans(spans, ctx);
    expect(mapped).toEqual([]);
    expect(ignored.map((s) => s.name)).toEqual(spans.map((s) => s.name));
  });

  it("what the tape cannot keep is cut or cleaned: long arguments, NUL, a lone surrogate, a conversation id that is no id", () => {
    const big = span("execute_tool write_file", {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "write\u0000_file",
      "gen_ai.tool.call.arguments": "x".repeat(50_000),
      "gen_ai.tool.call.result": "ok \ud800 done",
      "gen_ai.conversation.id": "line\nbreak",
    });
    const [started, ended] = mapGenAiSpans([big], ctx).mapped[0]!.events;
    expect((started!.body as { input: string }).input).toHaveLength(SUMMARY_MAX);
    expect(started!.body).toMatchObject({ tool: "write_file" });
    expect(ended!.body).toMatchObject({ output: "ok \ufffd done" });
    expect(started!.sessionId).toBe(TRACE);
    expect(ZEventInput.safeParse(started).success && ZEventInput.safeParse(ended).success).toBe(true);
  });

  it("times that are no times are left to the server (no ts), and a negative duration is none", () => {
    const odd = span(
      "execute_tool t",
      { "gen_ai.operation.name": "execute_tool" },
      { startNs: 0n, endNs: 0n },
    );
    const [started, ended] = mapGenAiSpans([odd], ctx).mapped[0]!.events;
    expect(started!.ts).toBeUndefined();
    expect((ended!.body as { durationMs?: number }).durationMs).toBeUndefined();
  });
});
