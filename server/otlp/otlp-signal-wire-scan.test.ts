// The wire walk for logs and metrics must count at least what their decoders build (the generated
// Metric decoder; otlp-logs-codec.ts for log records), on real requests and on bodies garbled at
// random, or the bound it enforces would not bound decoding.
import { describe, expect, it } from "vitest";
import root from "@opentelemetry/otlp-transformer/build/src/generated/root.js";
import protobuf from "protobufjs/minimal.js";
import { runSteps } from "../domain/plan-append";
import { LOGS_WIRE, METRICS_WIRE, scanRequestSteps, type WireSchema } from "./otlp-wire-scan";
import { decodeLogsProtobufSteps } from "./otlp-logs-codec";
import { decodeMetricsProtobufSteps } from "./otlp-metrics-codec";
import { loadFixture, metricsRequestJson, timeOf } from "../testing/agent-telemetry-fixtures";

type Codec = {
  fromObject(o: object): object;
  encode(m: object): { finish(): Uint8Array };
  decode(b: Uint8Array): object;
};
const MetricsRequest = (
  root as unknown as {
    opentelemetry: { proto: { collector: { metrics: { v1: { ExportMetricsServiceRequest: Codec } } } } };
  }
).opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
type Encoder = { fromObject(o: object): object; encode(m: object, w: protobuf.Writer): protobuf.Writer };
const common = (root as unknown as { opentelemetry: { proto: { common: { v1: Record<string, Encoder> } } } })
  .opentelemetry.proto.common.v1;
const [KeyValueType, AnyValueType] = [common.KeyValue!, common.AnyValue!];
const LOOSE = { maxSpans: Infinity, maxItems: Infinity, maxDepth: 64 };
const scan = (bytes: Uint8Array, wire: WireSchema) => runSteps(scanRequestSteps(bytes, wire, LOOSE));

/** Every object the decoder built (not Longs, not byte arrays). */
function objects(value: unknown): number {
  if (Array.isArray(value))
    return value.reduce((n: number, v) => n + (typeof v === "string" ? 1 : objects(v)), 0);
  if (
    typeof value !== "object" ||
    value === null ||
    value instanceof Uint8Array ||
    value.constructor?.name === "Long"
  )
    return 0;
  return 1 + Object.values(value).reduce((n: number, v) => n + objects(v), 0);
}

const typed = (v: string | number | boolean) =>
  typeof v === "string" ? { stringValue: v } : typeof v === "boolean" ? { boolValue: v } : { doubleValue: v };

/** Each agent's recorded log records, encoded as an exporter encodes them (field numbers of opentelemetry-proto's logs). */
function logsBody(): Uint8Array {
  const w = protobuf.Writer.create();
  for (const agent of ["claude-code", "codex", "gemini-cli"] as const) {
    const fx = loadFixture(agent);
    w.uint32(10).fork(); // resource_logs
    w.uint32(10).fork(); // resource
    for (const [key, v] of Object.entries(fx.resource))
      KeyValueType.encode(KeyValueType.fromObject({ key, value: typed(v) }), w.uint32(10).fork()).ldelim();
    w.ldelim();
    w.uint32(18).fork(); // scope_logs
    w.uint32(10).fork().uint32(10).string("recorded").ldelim(); // scope
    for (const l of fx.logs) {
      w.uint32(18).fork(); // log_record
      w.uint32(9).fixed64(timeOf(l.attributes) * 1e6);
      if (l.body)
        AnyValueType.encode(AnyValueType.fromObject({ stringValue: l.body }), w.uint32(42).fork()).ldelim();
      for (const [key, v] of Object.entries(l.attributes))
        KeyValueType.encode(KeyValueType.fromObject({ key, value: typed(v) }), w.uint32(50).fork()).ldelim();
      w.ldelim();
    }
    w.ldelim().ldelim();
  }
  return w.finish();
}
const metricsBody = () => {
  const request = metricsRequestJson(loadFixture("claude-code"));
  request.resourceMetrics.push(...metricsRequestJson(loadFixture("gemini-cli")).resourceMetrics);
  return MetricsRequest.encode(MetricsRequest.fromObject(request)).finish();
};

/** A small deterministic generator, so a failure can be replayed. */
function prng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

const signals = [
  {
    name: "logs",
    wire: LOGS_WIRE,
    body: logsBody,
    units: 23,
    decode: (b: Uint8Array) => runSteps(decodeLogsProtobufSteps(b)),
  },
  {
    name: "metrics",
    wire: METRICS_WIRE,
    body: metricsBody,
    units: 7,
    decode: (b: Uint8Array) => runSteps(decodeMetricsProtobufSteps(b)),
  },
];

describe.each(signals)("the wire walk of $name", ({ wire, body, units, decode }) => {
  it("counts the request's records or data points, and no fewer items than its decoder builds", () => {
    const bytes = body();
    const result = scan(bytes, wire);
    expect(result).toMatchObject({ ok: true, spans: units });
    expect(result.ok && result.items).toBeGreaterThanOrEqual(objects(decode(bytes)));
  });

  it("on bodies garbled at random: whatever it lets through is decoded into no more items than it counted", () => {
    const random = prng(29);
    const original = body();
    for (let round = 0; round < 2000; round++) {
      const bytes = Uint8Array.from(original);
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--)
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      const cut = random() < 0.2 ? bytes.subarray(0, Math.floor(random() * bytes.length)) : bytes;
      const result = scan(cut, wire);
      if (!result.ok) continue;
      let decoded: unknown = null;
      try {
        decoded = decode(cut);
      } catch {
        continue; // refused as undecodable: a 400, nothing built
      }
      expect(result.items, `round ${round}`).toBeGreaterThanOrEqual(objects(decoded));
    }
  });
});
