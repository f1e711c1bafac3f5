// POST /v1/traces against the real server, fed by the OpenTelemetry JS SDK's own OTLP exporters
// (http/json and http/protobuf, gzip or not), with spans a GenAI framework would make.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { context, SpanKind, SpanStatusCode, trace, type Attributes } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import root from "@opentelemetry/otlp-transformer/build/src/generated/root.js";
import { testProviders } from "../testing/test-databases";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import type { TapeEvent } from "../wire/events";

type Exporter = {
  export(spans: ReadableSpan[], done: (r: { code: number; error?: Error & { code?: number } }) => void): void;
  shutdown(): Promise<void>;
};
const SUCCESS = 0;

/** Real spans of one agent run, made by the SDK: the agent, a tool that works, one that fails, a model call, an HTTP call. */
function agentRun(conversation: string): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": "trip-planner" }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer("podwatch-test");
  const child = (
    parent: ReturnType<typeof tracer.startSpan>,
    name: string,
    attributes: Attributes,
    kind = SpanKind.INTERNAL,
  ) => tracer.startSpan(name, { attributes, kind }, trace.setSpan(context.active(), parent));
  const agent = tracer.startSpan("invoke_agent Trip Planner", {
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "Trip Planner",
      "gen_ai.conversation.id": conversation,
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": "claude-sonnet-4-5",
    },
  });
  const chat = child(
    agent,
    "chat claude-sonnet-4-5",
    {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": "claude-sonnet-4-5",
      "gen_ai.usage.input_tokens": 1500,
      "gen_ai.usage.output_tokens": 210,
      "gen_ai.usage.cache_read.input_tokens": 1000,
    },
    SpanKind.CLIENT,
  );
  chat.end();
  const tool = child(agent, "execute_tool get_weather", {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "get_weather",
    "gen_ai.tool.call.id": "toolu_01A09q90qw90lq917835lq9",
    "gen_ai.tool.call.arguments": JSON.stringify({ city: "Lisbon" }),
    "gen_ai.tool.call.result": "sunny, 24°C",
  });
  const http = child(
    tool,
    "GET",
    { "http.request.method": "GET", "url.full": "https://weather.example/v1/lisbon" },
    SpanKind.CLIENT,
  );
  http.end();
  tool.end();
  const failing = child(agent, "execute_tool book_hotel", {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "book_hotel",
    "gen_ai.tool.call.id": "toolu_02",
  });
  failing.recordException(new Error("no rooms left"));
  failing.setStatus({ code: SpanStatusCode.ERROR });
  failing.end();
  agent.end();
  return memory.getFinishedSpans() as ReadableSpan[];
}

const exportWith = (exporter: Exporter, spans: ReadableSpan[]) =>
  new Promise<{ code: number; error?: Error & { code?: number } }>((resolve) =>
    exporter.export(spans, resolve),
  );

/** The README's way: nothing in code, only the environment an OpenTelemetry SDK reads. */
function exporterFromEnvironment(
  Kind: typeof JsonExporter | typeof ProtoExporter,
  env: Record<string, string>,
): Exporter {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return new Kind() as unknown as Exporter;
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

const TraceService = (
  root as unknown as {
    opentelemetry: {
      proto: {
        collector: {
          trace: {
            v1: Record<
              string,
              { decode(b: Uint8Array): unknown; toObject(m: unknown, o: object): Record<string, unknown> }
            >;
          };
        };
      };
    };
  }
).opentelemetry.proto.collector.trace.v1;

describe.each(testProviders())("OTLP/HTTP traces in (%s)", (provider) => {
  let s: TestServer;
  let pod: { podId: string; tokens: Record<string, string> };
  const endpoint = () => `${s.url}/v1/traces`;
  const tape = async (podId = pod.podId) =>
    (
      await api<{ events: TapeEvent[] }>(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)
    ).body.events.filter(
      (e) => e.actor !== "admin:default" && e.type !== "pod.created" && e.type !== "member.joined",
    );
  const post = (body: Uint8Array | string, headers: Record<string, string>, token = pod.tokens.planner!) =>
    fetch(endpoint(), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, ...headers },
      body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]),
    });

  beforeAll(async () => {
    s = await startTestServer(provider);
    pod = await agentPod(s.url, "otel", { planner: "implementer" });
  });
  afterAll(() => s?.stop());

  it("http/json, configured by the environment alone: the run arrives as a session, tool calls and usage, as the token's member", async () => {
    const exporter = exporterFromEnvironment(JsonExporter, {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: endpoint(),
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: `Authorization=Bearer%20${pod.tokens.planner}`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
    });
    const result = await exportWith(exporter, agentRun("conv-json"));
    await exporter.shutdown();
    expect(result.error?.message).toBeUndefined();
    expect(result.code).toBe(SUCCESS);

    const events = (await tape()).filter((e) => e.meta?.sessionId === "conv-json");
    expect(events.every((e) => e.actor === "planner")).toBe(true);
    const byType = (t: string) => events.filter((e) => e.type === t);
    expect(byType("session.started")[0]!.body).toEqual({ via: "otel", model: "claude-sonnet-4-5" });
    expect(byType("session.ended")[0]!.body).toEqual({ reason: "completed" });
    expect(byType("usage.reported")[0]!.body).toEqual({
      model: "claude-sonnet-4-5",
      source: "otel",
      inputTokens: 500,
      outputTokens: 210,
      cacheReadTokens: 1000,
      cacheWriteTokens: 0,
    });
    const calls = byType("tool.call").map((e) => e.body as Record<string, unknown>);
    expect(calls.map((c) => [c.tool, c.phase])).toEqual(
      expect.arrayContaining([
        ["get_weather", "started"],
        ["get_weather", "succeeded"],
        ["book_hotel", "started"],
        ["book_hotel", "failed"],
      ]),
    );
    expect(calls.find((c) => c.phase === "succeeded")).toMatchObject({
      toolUseId: "toolu_01A09q90qw90lq917835lq9",
      output: "sunny, 24°C",
    });
    expect(calls.find((c) => c.phase === "started" && c.tool === "get_weather")).toMatchObject({
      input: '{"city":"Lisbon"}',
    });
    expect(calls.find((c) => c.phase === "failed")).toMatchObject({
      toolUseId: "toolu_02",
      error: "Error: no rooms left",
    });
    // The HTTP span was ignored: nothing of it is on the tape.
    expect(events).toHaveLength(7);
    expect(JSON.stringify(events)).not.toContain("weather.example");
    const state = await s.app.store.readState(pod.podId);
    expect(state!.sessions["conv-json"]).toMatchObject({
      agentId: "planner",
      via: "otel",
      model: "claude-sonnet-4-5",
      toolCalls: 2,
      failedToolCalls: 1,
      ended: { reason: "completed" },
    });
    expect(state!.usage.planner!["claude-sonnet-4-5"]).toMatchObject({
      inputTokens: 500,
      outputTokens: 210,
      cacheReadTokens: 1000,
      reports: 1,
    });
  });

  it("http/protobuf with gzip, and the exporter's retry of the same spans stores nothing twice", async () => {
    const exporter = new ProtoExporter({
      url: endpoint(),
      headers: { Authorization: `Bearer ${pod.tokens.planner}` },
      compression: "gzip" as never,
    }) as unknown as Exporter;
    const spans = agentRun("conv-proto");
    expect((await exportWith(exporter, spans)).code).toBe(SUCCESS);
    const first = (await tape()).filter((e) => e.meta?.sessionId === "conv-proto");
    expect(first.map((e) => e.type).sort()).toEqual([
      "session.ended",
      "session.started",
      "tool.call",
      "tool.call",
      "tool.call",
      "tool.call",
      "usage.reported",
    ]);
    expect((await exportWith(exporter, spans)).code).toBe(SUCCESS);
    expect((await tape()).filter((e) => e.meta?.sessionId === "conv-proto")).toEqual(first);
    await exporter.shutdown();
  });

  it("a bad token is refused (401, as a google.rpc.Status) and nothing is stored; a person's or the admin's credential is no agent's", async () => {
    const before = (await tape()).length;
    const exporter = new JsonExporter({
      url: endpoint(),
      headers: { Authorization: "Bearer pwa_not-a-real-token" },
    }) as unknown as Exporter;
    const result = await exportWith(exporter, agentRun("conv-bad"));
    await exporter.shutdown();
    expect(result.code).not.toBe(SUCCESS);
    expect(result.error?.code).toBe(401);
    const raw = await post(
      JSON.stringify({ resourceSpans: [] }),
      { "content-type": "application/json" },
      "pwa_not-a-real-token",
    );
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({ code: 16, message: expect.stringContaining("unauthenticated") });
    const admin = await post(
      JSON.stringify({ resourceSpans: [] }),
      { "content-type": "application/json" },
      TEST_ADMIN_TOKEN,
    );
    expect(admin.status).toBe(403);
    expect((await tape()).length).toBe(before);
  });

  it("partial success: a malformed span is refused and counted, the others stored", async () => {
    const span = (traceId: string, spanId: string) => ({
      traceId,
      spanId,
      name: "execute_tool grep",
      kind: 1,
      startTimeUnixNano: "1760000000000000000",
      endTimeUnixNano: "1760000000250000000",
      attributes: [
        { key: "gen_ai.operation.name", value: { stringValue: "execute_tool" } },
        { key: "gen_ai.tool.name", value: { stringValue: "grep" } },
        { key: "gen_ai.conversation.id", value: { stringValue: "conv-partial" } },
      ],
      status: { code: 1 },
    });
    const body = {
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [
            {
              scope: { name: "hand" },
              spans: [span("0".repeat(32), "1".repeat(16)), span("ab".repeat(16), "2".repeat(16))],
            },
          ],
        },
      ],
    };
    const res = await post(JSON.stringify(body), { "content-type": "application/json" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      partialSuccess: { rejectedSpans: "1", errorMessage: expect.stringContaining("traceId") },
    });
    const stored = (await tape()).filter((e) => e.meta?.sessionId === "conv-partial");
    expect(stored.map((e) => (e.body as { phase: string }).phase)).toEqual(["started", "succeeded"]);
    expect(stored[1]).toMatchObject({ ts: "2025-10-09T08:53:20.250Z", body: { durationMs: 250 } });
  });

  it("only non-GenAI spans: accepted, ignored (counted in a header), nothing stored; the protobuf answer is an ExportTraceServiceResponse", async () => {
    const before = (await tape()).length;
    const memory = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).getTracer(
      "web",
    );
    tracer.startSpan("GET /healthz", { attributes: { "http.request.method": "GET" } }).end();
    tracer.startSpan("SELECT 1", { attributes: { "db.system.name": "postgresql" } }).end();
    const exporter = new ProtoExporter({
      url: endpoint(),
      headers: { Authorization: `Bearer ${pod.tokens.planner}` },
    }) as unknown as Exporter;
    expect((await exportWith(exporter, memory.getFinishedSpans() as ReadableSpan[])).code).toBe(SUCCESS);
    await exporter.shutdown();
    expect((await tape()).length).toBe(before);
    const empty = await post(new Uint8Array(0), { "content-type": "application/x-protobuf" });
    expect(empty.status).toBe(200);
    expect(empty.headers.get("content-type")).toBe("application/x-protobuf");
    expect(
      TraceService.ExportTraceServiceResponse!.toObject(
        TraceService.ExportTraceServiceResponse!.decode(new Uint8Array(await empty.arrayBuffer())),
        {},
      ),
    ).toEqual({});
    const json = await post(
      JSON.stringify({
        resourceSpans: [
          { scopeSpans: [{ spans: [{ traceId: "cd".repeat(16), spanId: "3".repeat(16), name: "GET /" }] }] },
        ],
      }),
      { "content-type": "application/json" },
    );
    expect(json.headers.get("x-podwatch-ignored-spans")).toBe("1");
    expect(await json.json()).toEqual({});
  });

  it("garbage protobuf and broken JSON are 400; another media type 415; an unknown Content-Encoding 415", async () => {
    const garbage = await post(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x02]), {
      "content-type": "application/x-protobuf",
    });
    expect(garbage.status).toBe(400);
    const bytes = new Uint8Array(await garbage.arrayBuffer());
    expect(bytes[0]).toBe(0x08); // google.rpc.Status.code = 3 (INVALID_ARGUMENT)
    expect(bytes[1]).toBe(3);
    expect(Buffer.from(bytes).toString("utf8")).toContain("invalid_otlp");
    expect((await post("{not json", { "content-type": "application/json" })).status).toBe(400);
    const hexless = await post(
      JSON.stringify({
        resourceSpans: [
          { scopeSpans: [{ spans: [{ traceId: "AQEBAQEBAQEBAQEBAQEBAQ==", spanId: "AgICAgICAgI=" }] }] },
        ],
      }),
      { "content-type": "application/json" },
    );
    expect(hexless.status).toBe(400);
    expect((await hexless.json()).message).toContain("hex");
    expect((await post("resourceSpans", { "content-type": "text/plain" })).status).toBe(415);
    expect((await post("{}", { "content-type": "application/json", "content-encoding": "br" })).status).toBe(
      415,
    );
    expect(
      (await post("not gzip", { "content-type": "application/json", "content-encoding": "gzip" })).status,
    ).toBe(400);
  });

  it("too large: a body past 4 MiB, and a gzip bomb that would inflate past it, are 413", async () => {
    const big = await post("x".repeat(5 * 1024 * 1024), { "content-type": "application/json" });
    expect(big.status).toBe(413);
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await post(bomb, { "content-type": "application/json", "content-encoding": "gzip" });
    expect(res.status).toBe(413);
    expect((await res.json()).message).toContain("inflates");
  });
});
