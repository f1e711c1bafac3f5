// A child process that exports one GenAI `invoke_agent` span with the OpenTelemetry JS SDK, configured
// only by the standard OTEL_EXPORTER_OTLP_* variables of its environment (as an agent pasting a snippet
// would have them): the protocol picks the exporter. argv[2]: the span's gen_ai.conversation.id.
import { BasicTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

// Said by the snippet, not left to a default: another SDK's default may be gRPC, which podwatch does not speak.
const protocol = process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL;
if (protocol !== "http/protobuf" && protocol !== "http/json") {
  process.stderr.write(`no OTLP/HTTP protocol set (OTEL_EXPORTER_OTLP_TRACES_PROTOCOL is ${protocol})\n`);
  process.exit(2);
}
const { OTLPTraceExporter } =
  protocol === "http/json"
    ? await import("@opentelemetry/exporter-trace-otlp-http")
    : await import("@opentelemetry/exporter-trace-otlp-proto");
let failed = null;
const exporter = new OTLPTraceExporter();
const shown = exporter.export.bind(exporter);
// The SDK logs a failed export and moves on; the caller needs to know.
exporter.export = (spans, done) =>
  shown(spans, (r) => ((failed = r.error ?? (r.code ? "failed" : null)), done(r)));
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const span = provider.getTracer("connect-snippets").startSpan("invoke_agent podwatch-snippet", {
  attributes: { "gen_ai.operation.name": "invoke_agent", "gen_ai.conversation.id": process.argv[2] },
});
span.end();
await provider.forceFlush();
await provider.shutdown();
if (failed) {
  process.stderr.write(`export failed: ${failed}\n`);
  process.exit(1);
}
