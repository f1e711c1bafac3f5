// OTLP's messages, read and written with the OpenTelemetry project's own generated protobuf code
// (opentelemetry-proto compiled by protobufjs, as @opentelemetry/otlp-transformer 0.216.0 ships
// it; later releases dropped it for a hand-written serializer that cannot decode). Both wire
// encodings go through the same message type: a JSON body is turned into one by the generated
// fromObject, after the one thing OTLP/JSON does differently from proto3's JSON mapping — trace
// and span ids are hex, not base64. Only this file knows where that code lives.
import root from "@opentelemetry/otlp-transformer/build/src/generated/root.js";
import protobuf from "protobufjs/minimal.js";

/** A 64-bit integer as protobufjs hands it over: a Long (when the `long` package is there) or a number. */
export type Int64 = number | { toString(): string };
export type AnyValue = {
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: Int64 | null;
  doubleValue?: number | null;
  arrayValue?: { values?: AnyValue[] | null } | null;
  kvlistValue?: { values?: KeyValue[] | null } | null;
  bytesValue?: Uint8Array | null;
};
export type KeyValue = { key?: string | null; value?: AnyValue | null };
export type SpanMessage = {
  traceId?: Uint8Array | null;
  spanId?: Uint8Array | null;
  parentSpanId?: Uint8Array | null;
  name?: string | null;
  kind?: number | null;
  startTimeUnixNano?: Int64 | null;
  endTimeUnixNano?: Int64 | null;
  attributes?: KeyValue[] | null;
  events?: { timeUnixNano?: Int64 | null; name?: string | null; attributes?: KeyValue[] | null }[] | null;
  status?: { code?: number | null; message?: string | null } | null;
};
export type TraceRequest = {
  resourceSpans?:
    | {
        resource?: { attributes?: KeyValue[] | null } | null;
        scopeSpans?: { spans?: SpanMessage[] | null }[] | null;
      }[]
    | null;
};

type Codec<T> = {
  decode(bytes: Uint8Array): T;
  fromObject(value: object): T;
  encode(message: object): { finish(): Uint8Array };
  toObject(message: T, options: object): Record<string, unknown>;
};
const service = (
  root as unknown as {
    opentelemetry: { proto: { collector: { trace: { v1: Record<string, Codec<unknown>> } } } };
  }
).opentelemetry.proto.collector.trace.v1;
const Request = service.ExportTraceServiceRequest as Codec<TraceRequest>;
const Response = service.ExportTraceServiceResponse!;
type Decoder<T> = { decode(reader: protobuf.Reader, length: number): T };
const proto = (
  root as unknown as { opentelemetry: { proto: Record<string, { v1: Record<string, Decoder<unknown>> }> } }
).opentelemetry.proto;
const SpanType = proto.trace!.v1.Span as Decoder<SpanMessage>;
const ResourceType = proto.resource!.v1.Resource as Decoder<{ attributes?: KeyValue[] | null }>;

export class UndecodableBody extends Error {}

/**
 * An `application/x-protobuf` body, one span at a time: the request's envelopes (resource spans, scope spans) are walked
 * here and each span and resource is decoded by the generated code, so a caller can pause between
 * spans (server/db/time-slices.ts). It reads what readSpans reads: resources and spans (not scopes).
 */
export function* decodeProtobufSteps(bytes: Uint8Array): Generator<void, TraceRequest> {
  const reader = protobuf.Reader.create(bytes);
  const resourceSpans: NonNullable<TraceRequest["resourceSpans"]> = [];
  try {
    // As the generated decoder: a known field's length is read whatever its wire type says.
    const fields = function* (end: number, each: (field: number) => Generator<void, boolean>) {
      while (reader.pos < end) {
        const tag = reader.uint32();
        if (!(yield* each(tag >>> 3))) reader.skipType(tag & 7);
      }
    };
    yield* fields(reader.len, function* (field) {
      if (field !== 1) return false;
      const rs: { resource?: { attributes?: KeyValue[] | null }; scopeSpans: { spans: SpanMessage[] }[] } = {
        scopeSpans: [],
      };
      yield* fields(reader.uint32() + reader.pos, function* (f) {
        if (f === 1) rs.resource = ResourceType.decode(reader, reader.uint32());
        else if (f === 2) {
          const ss = { spans: [] as SpanMessage[] };
          yield* fields(reader.uint32() + reader.pos, function* (g) {
            if (g !== 2) return false;
            ss.spans.push(SpanType.decode(reader, reader.uint32()));
            yield;
            return true;
          });
          rs.scopeSpans.push(ss);
        } else return false;
        return true;
      });
      resourceSpans.push(rs);
      return true;
    });
  } catch (e) {
    // Includes RangeError for a message nested past the stack: the body is refused (a 400), the server lives on.
    throw new UndecodableBody(`not an ExportTraceServiceRequest: ${(e as Error).message}`);
  }
  return { resourceSpans };
}

/** An `application/json` body (already parsed): OTLP/JSON's hex ids made bytes, then the generated fromObject. */
export function decodeJson(value: unknown): TraceRequest {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UndecodableBody("an ExportTraceServiceRequest is a JSON object");
  try {
    return Request.fromObject(withBinaryIds(value as Record<string, unknown>));
  } catch (e) {
    if (e instanceof UndecodableBody) throw e;
    throw new UndecodableBody(`not an ExportTraceServiceRequest: ${(e as Error).message}`);
  }
}

const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === "object" && x !== null) : [];

/** A copy of the request's span skeleton with traceId/spanId/parentSpanId (and links' ids) as bytes. */
function withBinaryIds(request: Record<string, unknown>): object {
  const hexIds = (o: Record<string, unknown>) => {
    const out = { ...o };
    for (const [key, bytes] of [
      ["traceId", 16],
      ["spanId", 8],
      ["parentSpanId", 8],
    ] as const)
      if (key in o) out[key] = hexToBytes(o[key], bytes, key);
    return out;
  };
  return {
    ...request,
    resourceSpans: list(request.resourceSpans).map((rs) => ({
      ...rs,
      scopeSpans: list(rs.scopeSpans).map((ss) => ({
        ...ss,
        spans: list(ss.spans).map((span) => ({ ...hexIds(span), links: list(span.links).map(hexIds) })),
      })),
    })),
  };
}

function hexToBytes(value: unknown, bytes: number, key: string): Uint8Array {
  if (value === "" || value === undefined || value === null) return new Uint8Array(0);
  if (typeof value !== "string" || !new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`).test(value)) {
    throw new UndecodableBody(
      `${key} must be ${bytes * 2} hex digits (OTLP/JSON encodes ids as hex, not base64)`,
    );
  }
  return Buffer.from(value, "hex");
}

export type Encoding = "json" | "protobuf";
export type ExportResult = { rejectedSpans: number; errorMessage: string };

/** ExportTraceServiceResponse; partial_success only when some spans were refused (left unset on full success, as the spec asks). */
export function encodeResponse(
  encoding: Encoding,
  result: ExportResult | null,
): { body: Uint8Array | string; contentType: string } {
  const message = result
    ? { partialSuccess: { rejectedSpans: result.rejectedSpans, errorMessage: result.errorMessage } }
    : {};
  if (encoding === "protobuf")
    return { body: Response.encode(message).finish(), contentType: "application/x-protobuf" };
  // proto3 JSON: an int64 is a string.
  const json = result
    ? { partialSuccess: { rejectedSpans: String(result.rejectedSpans), errorMessage: result.errorMessage } }
    : {};
  return { body: JSON.stringify(json), contentType: "application/json" };
}

/** google.rpc.Status (code = 1, message = 2), the body OTLP/HTTP gives every 4xx and 5xx. */
export function encodeStatus(
  encoding: Encoding,
  code: number,
  message: string,
): { body: Uint8Array | string; contentType: string } {
  if (encoding === "protobuf") {
    return {
      body: protobuf.Writer.create().uint32(8).int32(code).uint32(18).string(message).finish(),
      contentType: "application/x-protobuf",
    };
  }
  return { body: JSON.stringify({ code, message }), contentType: "application/json" };
}
