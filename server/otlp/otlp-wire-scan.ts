// A protobuf body is walked once, cheaply, before it is decoded, to bound what decoding would
// build. Decoding makes one object per message on the wire, and an empty message costs two bytes:
// 4 MiB can hold two million empty attributes, which the decoder turns into ~90 MB of objects
// while the event loop waits. This walk allocates nothing but a few numbers and stops at the
// first message past the bound. It is not a decoder: it reads nothing but tags and lengths, and
// it moves through the bytes exactly as the OpenTelemetry project's generated decoder does (the
// same protobufjs Reader calls for each field it knows, skipType for the rest), so what it counts
// is what decoding would make. otlp-wire-scan.test.ts holds the two to agree.
import protobuf from "protobufjs/minimal.js";
import { runSteps } from "../domain/plan-append";

/** How each message's fields are read, as root.js (opentelemetry-proto, trace only) reads them. */
type Read = "len" | "varint" | "int64" | "fixed64" | "fixed32" | "string*" | Message;
type Message =
  | "Request"
  | "ResourceSpans"
  | "Resource"
  | "EntityRef"
  | "ScopeSpans"
  | "Scope"
  | "Span"
  | "Event"
  | "Link"
  | "Status"
  | "KeyValue"
  | "AnyValue"
  | "ArrayValue"
  | "KeyValueList";
const FIELDS: Record<Message, Record<number, Read>> = {
  Request: { 1: "ResourceSpans" },
  ResourceSpans: { 1: "Resource", 2: "ScopeSpans", 3: "len" },
  Resource: { 1: "KeyValue", 2: "varint", 3: "EntityRef" },
  // Its keys are repeated strings: each is a string the decoder keeps, so each counts.
  EntityRef: { 1: "len", 2: "len", 3: "string*", 4: "string*" },
  ScopeSpans: { 1: "Scope", 2: "Span", 3: "len" },
  Scope: { 1: "len", 2: "len", 3: "KeyValue", 4: "varint" },
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
  KeyValue: { 1: "len", 2: "AnyValue" },
  AnyValue: { 1: "len", 2: "varint", 3: "int64", 4: "fixed64", 5: "ArrayValue", 6: "KeyValueList", 7: "len" },
  ArrayValue: { 1: "AnyValue" },
  KeyValueList: { 1: "KeyValue" },
};

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
  return runSteps(scanTraceRequestSteps(bytes, limits));
}

/** The messages around the spans: the walk pauses after each message inside them (a span, a resource). */
const ENVELOPES = new Set<Message>(["Request", "ResourceSpans", "ScopeSpans"]);

/** The same walk, one step per span (and resource): a large body is walked in slices (server/db/time-slices.ts). */
export function* scanTraceRequestSteps(bytes: Uint8Array, limits: WireLimits): Generator<void, WireScan> {
  const reader = protobuf.Reader.create(bytes);
  const seen = { spans: 0, items: 0 };
  /** Reads one field of a `type`; a nested message is returned (its type and end) for the caller to walk. */
  const field = (type: Message): { type: Message; end: number } | null => {
    const tag = reader.uint32();
    const read = FIELDS[type][tag >>> 3];
    if (read === undefined) reader.skipType(tag & 7);
    else if (read === "len") reader.skip(reader.uint32());
    else if (read === "varint") reader.uint32();
    else if (read === "int64") reader.int64();
    else if (read === "fixed64") reader.skip(8);
    else if (read === "fixed32") reader.skip(4);
    else {
      if (++seen.items > limits.maxItems) throw new Passed("items");
      if (read === "string*") reader.skip(reader.uint32());
      else {
        if (read === "Span" && ++seen.spans > limits.maxSpans) throw new Passed("spans");
        // As the decoder: the length is read whatever the wire type says, and bounds the child alone.
        const length = reader.uint32();
        return { type: read, end: reader.pos + length };
      }
    }
    return null;
  };
  const walk = (type: Message, end: number, depth: number) => {
    if (depth > limits.maxDepth) throw new Passed("depth");
    while (reader.pos < end) {
      const child = field(type);
      if (child) walk(child.type, child.end, depth + 1);
    }
  };
  const walkSteps = function* (type: Message, end: number, depth: number): Generator<void, void> {
    if (depth > limits.maxDepth) throw new Passed("depth");
    while (reader.pos < end) {
      const child = field(type);
      if (!child) continue;
      if (ENVELOPES.has(child.type)) yield* walkSteps(child.type, child.end, depth + 1);
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
