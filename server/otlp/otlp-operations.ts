// OTLP/HTTP traces, where any OpenTelemetry SDK or collector sends spans. Declared here for the
// OpenAPI document and the reference; served by server/http/otlp-routes.ts (`handwritten`): a body
// of JSON or protobuf, maybe gzipped, bounded on its bytes before it is decoded in slices, answered
// in the request's encoding; nothing a generic JSON door could do.
import { z } from "zod";
import { defineOperation } from "../operations/operation";

const ENCODINGS = ["application/json", "application/x-protobuf"];

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
        error: z
          .object({ code: z.number().int(), message: z.string() })
          .describe(
            "a google.rpc.Status (its gRPC code, and the error's code and message), in the request's encoding",
          ),
      },
      handwritten: true,
    },
  }),
};
