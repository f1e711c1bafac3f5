// The envelopes every OTLP export request shares, whatever its signal: the request holds
// resource-level messages (field 1), each a resource (field 1) and scope-level messages (field 2),
// each holding the signal's items (field 2: log records, metrics). Walked here so each item is
// decoded on its own and a caller can pause between items (server/db/time-slices.ts); scopes are
// not read (nothing maps from them). Also the answers every signal's export gets.
import root from "@opentelemetry/otlp-transformer/build/src/generated/root.js";
import protobuf from "protobufjs/minimal.js";
import type { KeyValue } from "./otlp-codec";
import { UndecodableBody } from "./otlp-codec";

export type ResourceMessage = { attributes?: KeyValue[] | null };
export type Enveloped<T> = { resource: ResourceMessage | null; items: T[] }[];
type Decoder<T> = { decode(reader: protobuf.Reader, length: number): T; fromObject(value: object): T };

const proto = (
  root as unknown as { opentelemetry: { proto: Record<string, { v1: Record<string, Decoder<unknown>> }> } }
).opentelemetry.proto;
export const ResourceType = proto.resource!.v1.Resource as Decoder<ResourceMessage>;
export const KeyValueType = proto.common!.v1.KeyValue as Decoder<KeyValue>;
export const AnyValueType = proto.common!.v1.AnyValue as Decoder<NonNullable<KeyValue["value"]>>;

/** A protobuf request's items, one step per item; `request` names it in a refusal. */
export function* decodeEnvelopeSteps<T>(
  bytes: Uint8Array,
  decodeItem: (reader: protobuf.Reader, length: number) => T,
  request: string,
): Generator<void, Enveloped<T>> {
  const reader = protobuf.Reader.create(bytes);
  const out: Enveloped<T> = [];
  try {
    // As the generated decoders: a known field's length is read whatever its wire type says.
    const fields = function* (end: number, each: (field: number) => Generator<void, boolean>) {
      while (reader.pos < end) {
        const tag = reader.uint32();
        if (!(yield* each(tag >>> 3))) reader.skipType(tag & 7);
      }
    };
    yield* fields(reader.len, function* (field) {
      if (field !== 1) return false;
      const entry: Enveloped<T>[number] = { resource: null, items: [] };
      yield* fields(reader.uint32() + reader.pos, function* (f) {
        if (f === 1) entry.resource = ResourceType.decode(reader, reader.uint32());
        else if (f === 2) {
          yield* fields(reader.uint32() + reader.pos, function* (g) {
            if (g !== 2) return false;
            entry.items.push(decodeItem(reader, reader.uint32()));
            yield;
            return true;
          });
        } else return false;
        return true;
      });
      out.push(entry);
      return true;
    });
  } catch (e) {
    // Includes RangeError for a message nested past the stack: the body is refused (a 400), the server lives on.
    throw new UndecodableBody(`not an ${request}: ${(e as Error).message}`);
  }
  return out;
}

/** A JSON request's envelopes (`resourceLogs` → `scopeLogs` → `logRecords`, …), each item read by `readItem`. */
export function readJsonEnvelopes<T>(
  value: unknown,
  keys: { resources: string; scopes: string; items: string },
  readItem: (item: Record<string, unknown>) => T,
  request: string,
): Enveloped<T> {
  if (!isObject(value)) throw new UndecodableBody(`an ${request} is a JSON object`);
  try {
    return list(value[keys.resources]).map((rs) => ({
      resource: isObject(rs.resource) ? ResourceType.fromObject(rs.resource) : null,
      items: list(rs[keys.scopes]).flatMap((ss) => list(ss[keys.items]).map(readItem)),
    }));
  } catch (e) {
    if (e instanceof UndecodableBody) throw e;
    throw new UndecodableBody(`not an ${request}: ${(e as Error).message}`);
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : []);

/**
 * An Export…ServiceResponse: partial_success (field 1: rejected count, field 2: message) only when
 * some items were refused. `rejectedKey` is its JSON name (rejectedLogRecords, rejectedDataPoints).
 */
export function encodeExportResponse(
  encoding: "json" | "protobuf",
  rejectedKey: string,
  result: { rejected: number; errorMessage: string } | null,
): { body: Uint8Array | string; contentType: string } {
  if (encoding === "protobuf") {
    const w = protobuf.Writer.create();
    if (result)
      w.uint32(10).fork().uint32(8).int64(result.rejected).uint32(18).string(result.errorMessage).ldelim();
    return { body: w.finish(), contentType: "application/x-protobuf" };
  }
  // proto3 JSON: an int64 is a string.
  const json = result
    ? { partialSuccess: { [rejectedKey]: String(result.rejected), errorMessage: result.errorMessage } }
    : {};
  return { body: JSON.stringify(json), contentType: "application/json" };
}
