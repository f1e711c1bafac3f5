// OTLP metrics (ExportMetricsServiceRequest), read with the OpenTelemetry project's generated code
// (as otlp-codec.ts reads traces): each Metric is decoded on its own between the shared envelopes.
// otlp-wire-scan.ts (METRICS_WIRE) walks the bytes exactly as the generated decoder reads them.
import root from "@opentelemetry/otlp-transformer/build/src/generated/root.js";
import type protobuf from "protobufjs/minimal.js";
import type { Int64, KeyValue } from "./otlp-codec";
import { decodeEnvelopeSteps, type Enveloped, isObject, readJsonEnvelopes } from "./otlp-envelopes";

type Point = {
  attributes?: KeyValue[] | null;
  timeUnixNano?: Int64 | null;
  asDouble?: number | null;
  asInt?: Int64 | null;
  count?: Int64 | null;
};
export type MetricMessage = {
  name?: string | null;
  gauge?: { dataPoints?: Point[] | null } | null;
  sum?: { dataPoints?: Point[] | null; aggregationTemporality?: number | null } | null;
  histogram?: { dataPoints?: Point[] | null } | null;
  exponentialHistogram?: { dataPoints?: Point[] | null } | null;
  summary?: { dataPoints?: Point[] | null } | null;
};
export type MetricsRequest = Enveloped<MetricMessage>;
export const METRICS_REQUEST = "ExportMetricsServiceRequest";

type Codec = {
  decode(reader: protobuf.Reader, length: number): MetricMessage;
  fromObject(v: object): MetricMessage;
};
const MetricType = (root as unknown as { opentelemetry: { proto: { metrics: { v1: { Metric: Codec } } } } })
  .opentelemetry.proto.metrics.v1.Metric;

/** An `application/x-protobuf` body, one metric at a time. */
export const decodeMetricsProtobufSteps = (bytes: Uint8Array) =>
  decodeEnvelopeSteps(bytes, (reader, length) => MetricType.decode(reader, length), METRICS_REQUEST);

/** An `application/json` body (already parsed), each metric's read part through the generated fromObject. */
export function decodeMetricsJson(value: unknown): MetricsRequest {
  return readJsonEnvelopes(
    value,
    { resources: "resourceMetrics", scopes: "scopeMetrics", items: "metrics" },
    (m) => MetricType.fromObject(isObject(m) ? readPart(m) : {}),
    METRICS_REQUEST,
  );
}

const KINDS = ["gauge", "sum", "histogram", "exponentialHistogram", "summary"] as const;
const pointPart = (p: unknown) =>
  isObject(p)
    ? {
        attributes: p.attributes,
        timeUnixNano: p.timeUnixNano,
        asDouble: p.asDouble,
        asInt: p.asInt,
        count: p.count,
      }
    : {};

/**
 * What podwatch reads of a JSON metric (the fields of MetricMessage). A histogram's buckets, bounds
 * and exemplars are never read, and the generated fromObject turns each number into a Long: 2
 * million bucket counts, in a 4 MiB body of a few objects, held the event loop ~0.7 s and 150 MB.
 */
function readPart(m: Record<string, unknown>): object {
  const part: Record<string, unknown> = { name: m.name };
  for (const kind of KINDS) {
    const k = m[kind];
    if (!isObject(k)) continue;
    part[kind] = {
      dataPoints: Array.isArray(k.dataPoints) ? k.dataPoints.map(pointPart) : undefined,
      ...(kind === "sum" ? { aggregationTemporality: k.aggregationTemporality } : {}),
    };
  }
  return part;
}

/** Every data point of a metric, whatever its kind. */
export const pointsOf = (m: MetricMessage): Point[] =>
  m.sum?.dataPoints ??
  m.gauge?.dataPoints ??
  m.histogram?.dataPoints ??
  m.exponentialHistogram?.dataPoints ??
  m.summary?.dataPoints ??
  [];

export const countDataPoints = (request: MetricsRequest) =>
  request.reduce((n, r) => n + r.items.reduce((k, m) => k + pointsOf(m).length, 0), 0);
