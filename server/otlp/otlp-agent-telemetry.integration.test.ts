// POST /v1/logs and /v1/metrics against the real server, fed by the OpenTelemetry JS SDK's own OTLP
// exporters (http/json and http/protobuf, gzip or not) with the telemetry Claude Code, Codex and
// Gemini CLI send, recorded in each one's documented schema (fixtures/): they land as the events
// those agents' hooks make, a retried export stores nothing twice, and unmapped names are counted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
  type ReadableLogRecord,
} from "@opentelemetry/sdk-logs";
import { MeterProvider, MetricReader, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import { OTLPLogExporter as JsonLogs } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPLogExporter as ProtoLogs } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPMetricExporter as JsonMetrics } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtoMetrics } from "@opentelemetry/exporter-metrics-otlp-proto";
import { testProviders } from "../testing/test-databases";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { FIXTURE_AGENTS, loadFixture, timeOf } from "../testing/agent-telemetry-fixtures";
import type { TapeEvent } from "../wire/events";

type Result = { code: number; error?: Error };
type Exporter<T> = { export(items: T, done: (r: Result) => void): void; shutdown(): Promise<void> };
type Agent = (typeof FIXTURE_AGENTS)[number];
const SUCCESS = 0;

/** The fixture's log records as the SDK makes them. */
async function logRecords(agent: Agent): Promise<ReadableLogRecord[]> {
  const fx = loadFixture(agent);
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes(fx.resource),
    processors: [new SimpleLogRecordProcessor({ exporter: memory })],
  });
  const logger = provider.getLogger("recorded");
  for (const l of fx.logs)
    logger.emit({
      ...(l.body ? { body: l.body } : {}),
      attributes: l.attributes,
      timestamp: timeOf(l.attributes),
    });
  await provider.forceFlush();
  return memory.getFinishedLogRecords();
}

class CollectOnly extends MetricReader {
  protected onForceFlush = async () => {};
  protected onShutdown = async () => {};
}

/** The fixture's metrics as the SDK collects them: counters, cumulative. */
async function metrics(agent: Agent): Promise<ResourceMetrics> {
  const fx = loadFixture(agent);
  const reader = new CollectOnly();
  const provider = new MeterProvider({ resource: resourceFromAttributes(fx.resource), readers: [reader] });
  const meter = provider.getMeter("recorded");
  for (const m of fx.metrics) meter.createCounter(m.name).add(m.value, m.attributes);
  return (await reader.collect()).resourceMetrics;
}

const exportWith = <T>(exporter: Exporter<T>, items: T) =>
  new Promise<Result>((resolve) => exporter.export(items, resolve)).finally(() => exporter.shutdown());

/** The README's way: nothing in code, only the environment an OpenTelemetry SDK reads. */
function fromEnvironment<T>(make: () => T, env: Record<string, string>): T {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return make();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

/** What the tape says, without ids or times: two pods fed the same records read the same. */
const gist = (events: TapeEvent[]) =>
  events.map((e) => ({ type: e.type, actor: e.actor, session: e.meta?.sessionId, body: e.body }));

describe.each(testProviders())("OTLP/HTTP logs and metrics in (%s)", (provider) => {
  let s: TestServer;
  const tape = async (podId: string) =>
    (
      await api<{ events: TapeEvent[] }>(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)
    ).body.events.filter((e) => e.actor === "coder");
  const newPod = (name: string) => agentPod(s.url, name, { coder: "implementer" });
  const options = (token: string, signal: string, gzip = false) => ({
    url: `${s.url}/v1/${signal}`,
    headers: { Authorization: `Bearer ${token}` },
    ...(gzip ? { compression: "gzip" as never } : {}),
  });

  beforeAll(async () => {
    s = await startTestServer(provider);
  });
  afterAll(() => s?.stop());

  it.each(FIXTURE_AGENTS)(
    "%s: logs by http/json, configured by the environment alone, land as its hooks' events, as the token's member",
    async (agent) => {
      const pod = await newPod(`logs-${agent}`);
      const exporter = fromEnvironment(() => new JsonLogs(), {
        OTEL_EXPORTER_OTLP_ENDPOINT: s.url,
        OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${pod.tokens.coder}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      });
      const result = await exportWith<ReadableLogRecord[]>(exporter, await logRecords(agent));
      expect(result.error?.message).toBeUndefined();
      expect(result.code).toBe(SUCCESS);

      const events = await tape(pod.podId);
      const types = events.map((e) => e.type);
      expect(types[0]).toBe("session.started");
      expect(types.filter((t) => t === "session.started")).toHaveLength(1);
      expect(types).toEqual(expect.arrayContaining(["prompt.submitted", "tool.call", "usage.reported"]));
      const via = { "claude-code": "claude-code", codex: "codex", "gemini-cli": "gemini-cli" }[agent];
      expect(events[0]!.body).toMatchObject({ via });
      // A new pod keeps prompts' text (its policy may say otherwise: the mapping's unit test).
      const prompt = loadFixture(agent).logs.find((l) => typeof l.attributes.prompt === "string")!.attributes
        .prompt;
      expect(events.find((e) => e.type === "prompt.submitted")!.body).toMatchObject({ text: prompt });
      const calls = events
        .filter((e) => e.type === "tool.call")
        .map((e) => e.body as Record<string, unknown>);
      expect(calls.map((c) => c.phase)).toEqual(["started", "succeeded", "started", "failed"]);
      expect(calls[0]!.toolUseId).toBe(calls[1]!.toolUseId);
      expect(calls[3]!.error).toMatch(/^refused by the user: /);
      expect(calls.some((c) => "gate" in c)).toBe(false);

      const state = await s.app.store.readState(pod.podId);
      const session = Object.values(state!.sessions)[0]!;
      expect(session).toMatchObject({ agentId: "coder", via, prompts: 1, toolCalls: 2, failedToolCalls: 1 });
      const usage = Object.values(state!.usage.coder!)[0]!;
      expect(usage.reports).toBe(1);
      if (agent === "claude-code") expect(usage.costUsd).toBeCloseTo(0.0421, 6);

      const unmapped = await api<{ total: number; names: { name: string; count: number }[] }>(
        s.url,
        "GET",
        `/api/v1/pods/${pod.podId}/otlp/unmapped`,
      );
      expect(unmapped.status).toBe(200);
      expect(unmapped.body.total).toBe(1);
      expect(unmapped.body.names[0]!.name).toMatch(/^(claude_code|codex|gemini_cli)\./);
    },
  );

  it.each(FIXTURE_AGENTS)(
    "%s: the same records by http/protobuf, gzipped, read the same; sent again, nothing is stored twice",
    async (agent) => {
      const [json, proto] = [await newPod(`json-${agent}`), await newPod(`proto-${agent}`)];
      expect(
        (
          await exportWith<ReadableLogRecord[]>(
            new JsonLogs(options(json.tokens.coder!, "logs")),
            await logRecords(agent),
          )
        ).code,
      ).toBe(SUCCESS);
      const viaProto = async () =>
        exportWith<ReadableLogRecord[]>(
          new ProtoLogs(options(proto.tokens.coder!, "logs", true)),
          await logRecords(agent),
        );
      expect((await viaProto()).code).toBe(SUCCESS);
      const once = await tape(proto.podId);
      expect(once.length).toBeGreaterThan(5);
      expect(gist(once)).toEqual(gist(await tape(json.podId)));
      expect((await viaProto()).code).toBe(SUCCESS);
      expect(await tape(proto.podId)).toHaveLength(once.length);
    },
  );

  it.each(FIXTURE_AGENTS)(
    "%s: metrics, by http/json and http/protobuf: a session's count opens the session, usage is not counted twice",
    async (agent) => {
      const pod = await newPod(`metrics-${agent}`);
      const logs = await exportWith<ReadableLogRecord[]>(
        new JsonLogs(options(pod.tokens.coder!, "logs")),
        await logRecords(agent),
      );
      expect(logs.code).toBe(SUCCESS);
      const before = await tape(pod.podId);
      for (const Kind of [JsonMetrics, ProtoMetrics]) {
        const r = await exportWith<ResourceMetrics>(
          new Kind(options(pod.tokens.coder!, "metrics")),
          await metrics(agent),
        );
        expect(r.error?.message).toBeUndefined();
        expect(r.code).toBe(SUCCESS);
      }
      // The session was opened by the logs already; the metrics' start is the same event.
      expect(await tape(pod.podId)).toHaveLength(before.length);
      const usage = Object.values((await s.app.store.readState(pod.podId))!.usage.coder!)[0]!;
      expect(usage.reports).toBe(1);

      const fresh = await newPod(`metrics-only-${agent}`);
      const r = await exportWith<ResourceMetrics>(
        new ProtoMetrics(options(fresh.tokens.coder!, "metrics", true)),
        await metrics(agent),
      );
      expect(r.code).toBe(SUCCESS);
      const events = await tape(fresh.podId);
      // Gemini CLI's sessions are opened by its logs' config record only (agent-telemetry.ts).
      const expected = loadFixture(agent).metrics.length && agent !== "gemini-cli" ? ["session.started"] : [];
      expect(events.map((e) => e.type)).toEqual(expected);
    },
  );

  it("another pod's viewer may not read a pod's unmapped names; an agent's token is refused the door of people", async () => {
    const pod = await newPod("unmapped-guard");
    const other = await newPod("unmapped-other");
    const r = await api(s.url, "GET", `/api/v1/pods/${pod.podId}/otlp/unmapped`, undefined, {
      token: other.tokens.coder!,
    });
    expect(r.status).toBe(403);
  });
});
