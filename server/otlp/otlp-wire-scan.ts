// A protobuf body is walked once, cheaply, before it is decoded, to bound what decoding would
// build. Decoding makes one object per message on the wire, and an empty message costs two bytes:
// 4 MiB can hold two million empty attributes, which the decoder turns into ~90 MB of objects
// while the event loop waits. This walk allocates nothing but a few numbers and stops at the
// first message past the bound. It is not a decoder: it reads nothing but tags and lengths, and
// it moves through the bytes exactly as the OpenTelemetry project's generated decoder does (the
// same protobufjs Reader calls for each field it knows, skipType for the rest), so what it counts
// is what decoding would make. otlp-wire-scan.test.ts holds the two to agree; one schema per signal
// (traces, logs: otlp-logs-codec.ts, metrics), the same walk.
import protobuf from "protobufjs/minimal.js";
import { runSteps } from "../domain/plan-append";

/**
 * How each message's fields are read, as the decoders read them: root.js (opentelemetry-proto,
 * generated) for traces and metrics, otlp-logs-codec.ts for logs. `packed64` / `packedVarint`: a
 * repeated number, packed (one length) or not (one value), as the generated code accepts both.
 */
type Read =
  "len" | "varint" | "int64" | "fixed64" | "fixed32" | "string*" | "packed64" | "packedVarint" | string;
type Fields = Record<string, Record<number, Read>>;
/** One signal's messages: the request's root, the message a bound counts (a span, a log record, a data point) and the envelopes around them. */
export type WireSchema = { fields: Fields; units: ReadonlySet<string>; envelopes: ReadonlySet<string> };

const COMMON: Fields = {
  Resource: { 1: "KeyValue", 2: "varint", 3: "EntityRef" },
  // Its keys are repeated strings: each is a string the decoder keeps, so each counts.
  EntityRef: { 1: "len", 2: "len", 3: "string*", 4: "string*" },
  Scope: { 1: "len", 2: "len", 3: "KeyValue", 4: "varint" },
  KeyValue: { 1: "len", 2: "AnyValue" },
  AnyValue: { 1: "len", 2: "varint", 3: "int64", 4: "fixed64", 5: "ArrayValue", 6: "KeyValueList", 7: "len" },
  ArrayValue: { 1: "AnyValue" },
  KeyValueList: { 1: "KeyValue" },
};
export const TRACES_WIRE: WireSchema = {
  fields: {
    ...COMMON,
    Request: { 1: "ResourceSpans" },
    ResourceSpans: { 1: "Resource", 2: "ScopeSpans", 3: "len" },
    ScopeSpans: { 1: "Scope", 2: "Span", 3: "len" },
    Span: {
      1: "len",
      2: "len",
      3: "len",
      4: "len",
      16: "fixed32",
      5: "len",
      6: "varint",
      7: "fixed64",
      8: "fixed64",
      9: "KeyValue",
      10: "varint",
      11: "Event",
      12: "varint",
      13: "Link",
      14: "varint",
      15: "Status",
    },
    Event: { 1: "fixed64", 2: "len", 3: "KeyValue", 4: "varint" },
    Link: { 1: "len", 2: "len", 3: "len", 4: "KeyValue", 5: "varint", 6: "fixed32" },
    Status: { 2: "len", 3: "varint" },
  },
  units: new Set(["Span"]),
  envelopes: new Set(["Request", "ResourceSpans", "ScopeSpans"]),
};
export const LOGS_WIRE: WireSchema = {
  fields: {
    ...COMMON,
    Request: { 1: "ResourceLogs" },
    ResourceLogs: { 1: "Resource", 2: "ScopeLogs", 3: "len" },
    ScopeLogs: { 1: "Scope", 2: "LogRecord", 3: "len" },
    LogRecord: {
      1: "fixed64",
      11: "fixed64",
      2: "varint",
      3: "len",
      5: "AnyValue",
      6: "KeyValue",
      7: "varint",
      8: "fixed32",
      9: "len",
      10: "len",
      12: "len",
    },
  },
  units: new Set(["LogRecord"]),
  envelopes: new Set(["Request", "ResourceLogs", "ScopeLogs"]),
};
const POINT = { 2: "fixed64", 3: "fixed64" } as const;
export const METRICS_WIRE: WireSchema = {
  fields: {
    ...COMMON,
    Request: { 1: "ResourceMetrics" },
    ResourceMetrics: { 1: "Resource", 2: "ScopeMetrics", 3: "len" },
    ScopeMetrics: { 1: "Scope", 2: "Metric", 3: "len" },
    Metric: {
      1: "len",
      2: "len",
      3: "len",
      5: "Gauge",
      7: "Sum",
      9: "Histogram",
      10: "ExponentialHistogram",
      11: "Summary",
      12: "KeyValue",
    },
    Gauge: { 1: "NumberDataPoint" },
    Sum: { 1: "NumberDataPoint", 2: "varint", 3: "varint" },
    Histogram: { 1: "HistogramDataPoint", 2: "varint" },
    ExponentialHistogram: { 1: "ExponentialHistogramDataPoint", 2: "varint" },
    Summary: { 1: "SummaryDataPoint" },
    NumberDataPoint: { ...POINT, 7: "KeyValue", 4: "fixed64", 6: "fixed64", 5: "Exemplar", 8: "varint" },
    HistogramDataPoint: {
      ...POINT,
      9: "KeyValue",
      4: "fixed64",
      5: "fixed64",
      6: "packed64",
      7: "packed64",
      8: "Exemplar",
      10: "varint",
      11: "fixed64",
      12: "fixed64",
    },
    ExponentialHistogramDataPoint: {
      ...POINT,
      1: "KeyValue",
      4: "fixed64",
      5: "fixed64",
      6: "varint",
      7: "fixed64",
      8: "Buckets",
      9: "Buckets",
      10: "varint",
      11: "Exemplar",
      12: "fixed64",
      13: "fixed64",
      14: "fixed64",
    },
    Buckets: { 1: "varint", 2: "packedVarint" },
    SummaryDataPoint: {
      ...POINT,
      7: "KeyValue",
      4: "fixed64",
      5: "fixed64",
      6: "ValueAtQuantile",
      8: "varint",
    },
    ValueAtQuantile: { 1: "fixed64", 2: "fixed64" },
    Exemplar: { 7: "KeyValue", 2: "fixed64", 3: "fixed64", 6: "fixed64", 4: "len", 5: "len" },
  },
  units: new Set([
    "NumberDataPoint",
    "HistogramDataPoint",
    "ExponentialHistogramDataPoint",
    "SummaryDataPoint",
  ]),
  envelopes: new Set(["Request", "ResourceMetrics", "ScopeMetrics"]),
};

/** `maxSpans`: the most units (spans, log records or data points) one request may hold. */
export type WireLimits = { maxSpans: number; maxItems: number; maxDepth: number };
/** What the walk found: the counts, or which bound was passed first (the walk stops there). */
export type WireScan =
  | { ok: true; spans: number; items: number }
  | { ok: false; passed: "spans" | "items" | "depth" | "malformed"; message: string };

class Passed extends Error {
  constructor(readonly bound: "spans" | "items" | "depth") {
    super(bound);
  }
}

/** Counts the spans and the items (every message, and every repeated string) an ExportTraceServiceRequest's bytes would decode into. */
export function scanTraceRequest(bytes: Uint8Array, limits: WireLimits): WireScan {
  return runSteps(scanRequestSteps(bytes, TRACES_WIRE, limits));
}

/**
 * The same walk for any signal's request, one step per message inside the envelopes (a span, a
 * log record, a metric, a resource): a large body is walked in slices (server/db/time-slices.ts).
 */
export function* scanRequestSteps(
  bytes: Uint8Array,
  schema: WireSchema,
  limits: WireLimits,
): Generator<void, WireScan> {
  const FIELDS = schema.fields;
  const reader = protobuf.Reader.create(bytes);
  const seen = { spans: 0, items: 0 };
  /** Reads one field of a `type`; a nested message is returned (its type and end) for the caller to walk. */
  const field = (type: string): { type: string; end: number } | null => {
    const tag = reader.uint32();
    const read = FIELDS[type]![tag >>> 3];
    if (read === undefined) reader.skipType(tag & 7);
    else if (read === "len") reader.skip(reader.uint32());
    else if (read === "varint") reader.uint32();
    else if (read === "int64") reader.int64();
    else if (read === "fixed64") reader.skip(8);
    else if (read === "fixed32") reader.skip(4);
    else if (read === "packed64" || read === "packedVarint") {
      // Each number is a value the decoder keeps (a uint64 a Long object): at most one a byte, or one per 8 bytes.
      const length = (tag & 7) === 2 ? reader.uint32() : 0;
      seen.items += read === "packed64" ? Math.ceil(length / 8) || 1 : length || 1;
      if (seen.items > limits.maxItems) throw new Passed("items");
      if ((tag & 7) === 2) reader.skip(length);
      else if (read === "packed64") reader.skip(8);
      else reader.uint64();
    } else {
      if (++seen.items > limits.maxItems) throw new Passed("items");
      if (read === "string*") reader.skip(reader.uint32());
      else {
        if (schema.units.has(read) && ++seen.spans > limits.maxSpans) throw new Passed("spans");
        // As the decoder: the length is read whatever the wire type says, and bounds the child alone.
        const length = reader.uint32();
        return { type: read, end: reader.pos + length };
      }
    }
    return null;
  };
  const walk = (type: string, end: number, depth: number) => {
    if (depth > limits.maxDepth) throw new Passed("depth");
    while (reader.pos < end) {
      const child = field(type);
      if (child) walk(child.type, child.end, depth + 1);
    }
  };
  const walkSteps = function* (type: string, end: number, depth: number): Generator<void, void> {
    if (depth > limits.maxDepth) throw new Passed("depth");
    while (reader.pos < end) {
      const child = field(type);
      if (!child) continue;
      if (schema.envelopes.has(child.type)) yield* walkSteps(child.type, child.end, depth + 1);
      else {
        walk(child.type, child.end, depth + 1);
        yield;
      }
    }
  };
  try {
    yield* walkSteps("Request", reader.len, 0);
    return { ok: true, ...seen };
  } catch (e) {
    if (e instanceof Passed) return { ok: false, passed: e.bound, message: `past the bound on ${e.bound}` };
    // A truncated or garbled body, or groups nested past the stack: the decoder would refuse it too.
    return { ok: false, passed: "malformed", message: (e as Error).message };
  }
}
