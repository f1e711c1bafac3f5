// OTLP logs (ExportLogsServiceRequest), where agents send their events (claude_code.*, codex.*,
// gemini_cli.*). The OpenTelemetry project's generated code we decode traces with has no logs, so
// a LogRecord's few fields are read here, its attributes and body by the generated common types.
// otlp-wire-scan.ts (LOGS_WIRE) walks the bytes exactly as this reads them.
import type protobuf from "protobufjs/minimal.js";
import type { AnyValue, Int64, KeyValue } from "./otlp-codec";
import {
  AnyValueType,
  decodeEnvelopeSteps,
  type Enveloped,
  isObject,
  KeyValueType,
  readJsonEnvelopes,
} from "./otlp-envelopes";

export type LogRecordMessage = {
  timeUnixNano?: Int64 | null;
  observedTimeUnixNano?: Int64 | null;
  body?: AnyValue | null;
  attributes: KeyValue[];
  eventName?: string | null;
};
export type LogsRequest = Enveloped<LogRecordMessage>;
export const LOGS_REQUEST = "ExportLogsServiceRequest";

function decodeLogRecord(reader: protobuf.Reader, length: number): LogRecordMessage {
  const end = reader.pos + length;
  const record: LogRecordMessage = { attributes: [] };
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        record.timeUnixNano = reader.fixed64();
        break;
      case 11:
        record.observedTimeUnixNano = reader.fixed64();
        break;
      case 5:
        record.body = AnyValueType.decode(reader, reader.uint32());
        break;
      case 6:
        record.attributes.push(KeyValueType.decode(reader, reader.uint32()));
        break;
      case 12:
        record.eventName = reader.string();
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return record;
}

/** An `application/x-protobuf` body, one log record at a time. */
export const decodeLogsProtobufSteps = (bytes: Uint8Array) =>
  decodeEnvelopeSteps(bytes, decodeLogRecord, LOGS_REQUEST);

/** An `application/json` body (already parsed): its records' times, event names, bodies and attributes. */
export function decodeLogsJson(value: unknown): LogsRequest {
  return readJsonEnvelopes(
    value,
    { resources: "resourceLogs", scopes: "scopeLogs", items: "logRecords" },
    (r) => ({
      timeUnixNano: int64(r.timeUnixNano),
      observedTimeUnixNano: int64(r.observedTimeUnixNano),
      body: isObject(r.body) ? AnyValueType.fromObject(r.body) : null,
      attributes: Array.isArray(r.attributes)
        ? r.attributes.filter(isObject).map((a) => KeyValueType.fromObject(a))
        : [],
      eventName: typeof r.eventName === "string" ? r.eventName : null,
    }),
    LOGS_REQUEST,
  );
}

/** proto3 JSON writes a 64-bit integer as a string (or a number). */
const int64 = (v: unknown): Int64 | null =>
  typeof v === "number" || (typeof v === "string" && /^\d{1,20}$/.test(v)) ? v : null;

export const countLogRecords = (request: LogsRequest) => request.reduce((n, r) => n + r.items.length, 0);
