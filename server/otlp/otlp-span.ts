// A decoded OTLP span as the mapping reads it: ids in hex, times in nanoseconds, attributes (the
// span's over its resource's gen_ai.* ones) as plain values. Values are bounded here, whatever the sender put
// in them: strings cut, arrays and maps cut and flattened to a few levels, lists of attributes cut.
import type { AnyValue, Int64, KeyValue, SpanMessage, TraceRequest } from "./otlp-codec";
import { runSteps } from "../domain/plan-append";

export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };
export type SpanStatus = "unset" | "ok" | "error";
export type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  startNs: bigint;
  endNs: bigint;
  attributes: ReadonlyMap<string, AttrValue>;
  status: SpanStatus;
  statusMessage: string;
  events: { name: string; attributes: ReadonlyMap<string, AttrValue> }[];
};

/** The most spans one request may carry; an exporter sends 512 at a time by default. */
export const MAX_SPANS_PER_REQUEST = 10_000;
/** Any one string value is kept up to this many characters (the tape keeps less still). */
const MAX_STRING = 16_384;
const MAX_DEPTH = 4;
const MAX_ITEMS = 64;
/** Span events read per span: exceptions are what we look for, and they come first. */
const MAX_EVENTS = 16;
/** Attributes read from one list: the SDKs' default attribute count limit (a span with more has been cut already). */
const MAX_ATTRIBUTES = 128;
/**
 * A resource's attributes are copied into each of its spans: only its gen_ai.* ones (all the
 * mapping could use), and a few, or one resource's list times 10,000 spans would be a quadratic
 * amount of work.
 */
const MAX_RESOURCE_ATTRIBUTES = 16;

export type SpanCount = { spans: OtlpSpan[]; malformed: number; problem: string | null };

export function countSpans(request: TraceRequest): number {
  let n = 0;
  for (const rs of request.resourceSpans ?? [])
    for (const ss of rs.scopeSpans ?? []) n += ss.spans?.length ?? 0;
  return n;
}

/** Every span of the request; a span without a valid trace or span id is counted as malformed (refused), not read. */
export function readSpans(request: TraceRequest): SpanCount {
  return runSteps(readSpanSteps(request));
}

/** The same, one step per span: a large export is read in slices (server/db/time-slices.ts). */
export function* readSpanSteps(request: TraceRequest): Generator<void, SpanCount> {
  const spans: OtlpSpan[] = [];
  let malformed = 0;
  let problem: string | null = null;
  for (const rs of request.resourceSpans ?? []) {
    const resource = new Map(
      [...attributesOf(rs.resource?.attributes)]
        .filter(([key]) => key.startsWith("gen_ai."))
        .slice(0, MAX_RESOURCE_ATTRIBUTES),
    );
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        yield;
        const read = readSpan(span, resource);
        if (typeof read === "string") {
          malformed++;
          problem ??= read;
        } else spans.push(read);
      }
    }
  }
  return { spans, malformed, problem };
}

const hex = (b: Uint8Array | null | undefined) =>
  b ? Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex") : "";
const validId = (id: string, bytes: number) => id.length === bytes * 2 && !/^0+$/.test(id);

function readSpan(span: SpanMessage, resource: ReadonlyMap<string, AttrValue>): OtlpSpan | string {
  const traceId = hex(span.traceId);
  const spanId = hex(span.spanId);
  if (!validId(traceId, 16)) return "a span's traceId must be 16 bytes, not all zero";
  if (!validId(spanId, 8)) return "a span's spanId must be 8 bytes, not all zero";
  const parent = hex(span.parentSpanId);
  const code = span.status?.code ?? 0;
  return {
    traceId,
    spanId,
    parentSpanId: validId(parent, 8) ? parent : null,
    name: cut(span.name ?? ""),
    startNs: nanos(span.startTimeUnixNano),
    endNs: nanos(span.endTimeUnixNano),
    attributes: new Map([...resource, ...attributesOf(span.attributes)]),
    status: code === 2 ? "error" : code === 1 ? "ok" : "unset",
    statusMessage: cut(span.status?.message ?? ""),
    events: (span.events ?? [])
      .slice(0, MAX_EVENTS)
      .map((e) => ({ name: cut(e.name ?? ""), attributes: attributesOf(e.attributes) })),
  };
}

export function nanos(v: Int64 | null | undefined): bigint {
  if (v === null || v === undefined) return 0n;
  try {
    const n = BigInt(typeof v === "number" ? Math.trunc(v) : v.toString());
    return n < 0n ? n + 2n ** 64n : n; // fixed64 read as a signed Long
  } catch {
    return 0n;
  }
}

export const cut = (s: string) => (s.length > MAX_STRING ? s.slice(0, MAX_STRING) : s);

export function attributesOf(kvs: KeyValue[] | null | undefined): Map<string, AttrValue> {
  const out = new Map<string, AttrValue>();
  for (const kv of (kvs ?? []).slice(0, MAX_ATTRIBUTES))
    if (kv.key) out.set(cut(kv.key), valueOf(kv.value, 0));
  return out;
}

export function valueOf(v: AnyValue | null | undefined, depth: number): AttrValue {
  if (!v) return null;
  if (v.stringValue !== null && v.stringValue !== undefined) return cut(v.stringValue);
  if (v.boolValue !== null && v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== null && v.intValue !== undefined)
    return Number(typeof v.intValue === "number" ? v.intValue : v.intValue.toString());
  if (v.doubleValue !== null && v.doubleValue !== undefined) return v.doubleValue;
  if (v.bytesValue) return Buffer.from(v.bytesValue).toString("base64").slice(0, MAX_STRING);
  if (depth >= MAX_DEPTH) return "…";
  if (v.arrayValue) return (v.arrayValue.values ?? []).slice(0, MAX_ITEMS).map((x) => valueOf(x, depth + 1));
  if (v.kvlistValue) {
    const entries = (v.kvlistValue.values ?? [])
      .slice(0, MAX_ITEMS)
      .filter((kv) => kv.key && kv.key !== "__proto__");
    return Object.fromEntries(entries.map((kv) => [cut(kv.key!), valueOf(kv.value, depth + 1)]));
  }
  return null;
}
