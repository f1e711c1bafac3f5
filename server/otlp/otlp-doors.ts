// What differs between OTLP's three signals at the one door (server/http/otlp-routes.ts): the
// path, the codec, what the bound counts, what the items map to and the answer's shape. Spans map
// through the GenAI conventions (genai-spans.ts); log records and metric points through the
// agents' own telemetry (agent-telemetry.ts).
import type { AppContext } from "../app-context";
import { appendingAs } from "../tape/append-events";
import { installationEventIds } from "../deadlines/system-event-id";
import type { TimeSlices } from "../db/time-slices";
import {
  decodeJson,
  decodeProtobufSteps,
  encodeResponse,
  type Encoding,
  type TraceRequest,
} from "./otlp-codec";
import { countSpans, readSpanSteps } from "./otlp-span";
import { ingestTraces } from "./ingest-traces";
import { createIgnoredSpanCounter, type IgnoredSpanCounter } from "./ignored-spans";
import { TRACES_SIGNAL, type WireSignal } from "./otlp-body-bounds";
import { LOGS_WIRE, METRICS_WIRE } from "./otlp-wire-scan";
import {
  countLogRecords,
  decodeLogsJson,
  decodeLogsProtobufSteps,
  LOGS_REQUEST,
  type LogsRequest,
} from "./otlp-logs-codec";
import {
  countDataPoints,
  decodeMetricsJson,
  decodeMetricsProtobufSteps,
  METRICS_REQUEST,
  type MetricsRequest,
} from "./otlp-metrics-codec";
import { readLogRecordSteps, readMetricPointSteps, type AgentRecord } from "./agent-records";
import { ingestAgentTelemetry } from "./ingest-agent-telemetry";
import { createUnmappedCounter, type UnmappedCounter } from "./unmapped-names";
import { encodeExportResponse } from "./otlp-envelopes";

/** The agent whose token sent the export. */
export type Exporter = { tokenId: string; podId: string; memberId: string };
type Answer = { body: Uint8Array | string; contentType: string };
export type OtlpDoor<R = unknown> = {
  path: string;
  /** What the bound counts, in a refusal: spans, log records, data points. */
  units: string;
  wire: WireSignal;
  decodeProtobufSteps(bytes: Uint8Array): Generator<void, R>;
  decodeJson(value: unknown): R;
  count(request: R): number;
  ingest(
    app: AppContext,
    who: Exporter,
    request: R,
    slices: TimeSlices,
  ): Promise<{ rejected: number; problem: string | null; header: [string, number] }>;
  respond(encoding: Encoding, result: { rejected: number; errorMessage: string } | null): Answer;
};

const perApp = <T>(make: () => T) => {
  const map = new WeakMap<AppContext, T>();
  return (app: AppContext) => map.get(app) ?? (map.set(app, make()), map.get(app)!);
};
const ignoredSpans = perApp<IgnoredSpanCounter>(() => createIgnoredSpanCounter());
/** Log records and metric points this server received and does not map, per pod. */
export const unmappedRecords = perApp<UnmappedCounter>(() => createUnmappedCounter());

const tracesDoor: OtlpDoor<TraceRequest> = {
  path: "/v1/traces",
  units: "spans",
  wire: TRACES_SIGNAL,
  decodeProtobufSteps,
  decodeJson,
  count: countSpans,
  async ingest(app, who, request, slices) {
    const { spans, malformed, problem } = await slices.run(readSpanSteps(request));
    const result = await ingestTraces(
      appendingAs(app.append, { kind: "agent", ...who }),
      { podId: who.podId, actor: who.memberId },
      spans,
      await installationEventIds(app.store),
      slices,
    );
    ignoredSpans(app).add(who.podId, result.ignored);
    return {
      rejected: malformed + result.rejected,
      problem: problem ?? result.problem,
      header: ["x-podwatch-ignored-spans", result.ignored.length],
    };
  },
  respond: (encoding, result) =>
    encodeResponse(encoding, result && { rejectedSpans: result.rejected, errorMessage: result.errorMessage }),
};

function agentDoor<R>(
  door: Omit<OtlpDoor<R>, "ingest" | "respond">,
  read: (request: R) => Generator<void, AgentRecord[]>,
  rejectedKey: string,
): OtlpDoor<R> {
  return {
    ...door,
    async ingest(app, who, request, slices) {
      const records = await slices.run(read(request));
      const state = await app.store.readState(who.podId);
      const result = await ingestAgentTelemetry(
        appendingAs(app.append, { kind: "agent", ...who }),
        { podId: who.podId, actor: who.memberId, recordPrompts: state?.recordPrompts ?? false },
        records,
        await installationEventIds(app.store),
        slices,
      );
      unmappedRecords(app).add(who.podId, result.unmapped);
      return { ...result, header: ["x-podwatch-unmapped-records", result.unmapped.length] };
    },
    respond: (encoding, result) =>
      encodeExportResponse(
        encoding,
        rejectedKey,
        result && { rejected: result.rejected, errorMessage: result.errorMessage },
      ),
  };
}

const logsDoor = agentDoor<LogsRequest>(
  {
    path: "/v1/logs",
    units: "log records",
    wire: { wire: LOGS_WIRE, units: "log records", request: LOGS_REQUEST },
    decodeProtobufSteps: decodeLogsProtobufSteps,
    decodeJson: decodeLogsJson,
    count: countLogRecords,
  },
  readLogRecordSteps,
  "rejectedLogRecords",
);

const metricsDoor = agentDoor<MetricsRequest>(
  {
    path: "/v1/metrics",
    units: "data points",
    wire: { wire: METRICS_WIRE, units: "data points", request: METRICS_REQUEST },
    decodeProtobufSteps: decodeMetricsProtobufSteps,
    decodeJson: decodeMetricsJson,
    count: countDataPoints,
  },
  readMetricPointSteps,
  "rejectedDataPoints",
);

export const otlpDoors = [tracesDoor, logsDoor, metricsDoor] as OtlpDoor[];
