// OTLP/HTTP traces, logs and metrics, where any OpenTelemetry SDK or collector sends spans and the
// agents send their own telemetry. Declared here for the OpenAPI document and the reference; served
// by server/http/otlp-routes.ts (`handwritten`): a body of JSON or protobuf, maybe gzipped, bounded
// on its bytes before it is decoded in slices, answered in the request's encoding; nothing a
// generic JSON door could do. Also what a pod's exports held that podwatch does not map.
import { z } from "zod";
import { defineOperation, ZPodId } from "../operations/operation";
import { notFound } from "../domain/errors";
import { unmappedRecords } from "./otlp-doors";
import { MAX_UNMAPPED_NAMES } from "./unmapped-names";

const ENCODINGS = ["application/json", "application/x-protobuf"];
const COMMON =
  "JSON or protobuf (also `application/protobuf`), maybe `Content-Encoding: gzip`; up to 4 MiB before and after " +
  "inflating. Answers in the request's encoding. One export per token and two per server at a time (429 with " +
  "`Retry-After`). Any refusal is a google.rpc.Status, as OTLP/HTTP asks.";
const MEDIA = {
  request: ENCODINGS,
  response: ENCODINGS,
  error: z
    .object({ code: z.number().int(), message: z.string() })
    .describe(
      "a google.rpc.Status (its gRPC code, and the error's code and message), in the request's encoding",
    ),
};
const AGENTS_TELEMETRY =
  "Claude Code's `claude_code.*`, Codex's `codex.*` and Gemini CLI's `gemini_cli.*` become that member's sessions, " +
  "prompts (their text only when the pod keeps prompts), tool calls, refusals and usage (with the agent's own cost " +
  "when it sends one) in the token's pod; `x-podwatch-unmapped-records` counts what it does not map (see " +
  "`otlpUnmapped`).";
const partial = (key: string) =>
  z.object({
    partialSuccess: z
      .object({ [key]: z.string().describe("an int64: a string in JSON"), errorMessage: z.string() })
      .optional(),
  });

export const otlpOperations = {
  exportTraces: defineOperation({
    name: "exportTraces",
    summary:
      "An OTLP ExportTraceServiceRequest from the agent whose token it is: its spans become that member's events " +
      "in the token's pod. JSON or protobuf (also `application/protobuf`), maybe `Content-Encoding: gzip`; up to " +
      "4 MiB before and after inflating. Answers in the request's encoding; `partialSuccess` counts the spans " +
      "refused, and `x-podwatch-ignored-spans` the spans it had no use for. One export per token and two per " +
      "server at a time (429 with `Retry-After`). Any refusal is a google.rpc.Status, as OTLP/HTTP asks.",
    tag: "OTLP",
    input: z.object({
      request: z
        .object({ resourceSpans: z.array(z.unknown()).optional() })
        .describe("an ExportTraceServiceRequest (OpenTelemetry's trace service), in JSON or protobuf"),
    }),
    output: z.object({
      partialSuccess: z
        .object({
          rejectedSpans: z.string().describe("an int64: a string in JSON"),
          errorMessage: z.string(),
        })
        .optional(),
    }),
    guard: "agent",
    http: {
      method: "POST",
      path: "/v1/traces",
      status: 200,
      body: "request",
      media: {
        request: ENCODINGS,
        response: ENCODINGS,
        error: MEDIA.error,
      },
      handwritten: true,
    },
  }),
  exportLogs: defineOperation({
    name: "exportLogs",
    summary:
      "An OTLP ExportLogsServiceRequest from the agent whose token it is: its log records (events) of " +
      `${AGENTS_TELEMETRY} ${COMMON}`,
    tag: "OTLP",
    input: z.object({
      request: z
        .object({ resourceLogs: z.array(z.unknown()).optional() })
        .describe("an ExportLogsServiceRequest (OpenTelemetry's logs service), in JSON or protobuf"),
    }),
    output: partial("rejectedLogRecords"),
    guard: "agent",
    http: { method: "POST", path: "/v1/logs", status: 200, body: "request", media: MEDIA, handwritten: true },
  }),
  exportMetrics: defineOperation({
    name: "exportMetrics",
    summary:
      "An OTLP ExportMetricsServiceRequest from the agent whose token it is: a session's count opens that session as " +
      `the agent's; the token and cost metrics are read as known (usage comes from the log records, once). ${COMMON}`,
    tag: "OTLP",
    input: z.object({
      request: z
        .object({ resourceMetrics: z.array(z.unknown()).optional() })
        .describe("an ExportMetricsServiceRequest (OpenTelemetry's metrics service), in JSON or protobuf"),
    }),
    output: partial("rejectedDataPoints"),
    guard: "agent",
    http: {
      method: "POST",
      path: "/v1/metrics",
      status: 200,
      body: "request",
      media: MEDIA,
      handwritten: true,
    },
  }),
  otlpUnmapped: defineOperation({
    name: "otlpUnmapped",
    summary:
      "The log records and metric points this pod's OTLP exports held that podwatch does not map, counted per name " +
      `(at most ${MAX_UNMAPPED_NAMES} names) since this server started; each node counts what it received.`,
    tag: "OTLP",
    input: z.object({ podId: ZPodId }),
    output: z.object({
      total: z.number().int().min(0),
      names: z.array(
        z.object({ name: z.string(), signal: z.enum(["log", "metric"]), count: z.number().int().min(1) }),
      ),
      since: z.string().describe("when this server began counting (ISO 8601)"),
    }),
    guard: { pod: "viewer" },
    http: { method: "GET", path: "/api/v1/pods/{podId}/otlp/unmapped", status: 200 },
    run: async ({ app, podState }, { podId }) => {
      if (!(podState ?? (await app.store.readState(podId)))) throw notFound("pod");
      return unmappedRecords(app).read(podId);
    },
  }),
};
