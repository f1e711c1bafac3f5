// POST /v1/traces: OTLP/HTTP, where any OpenTelemetry SDK or collector sends spans when pointed at
// podwatch. Authenticated and rate limited like the agent API (its agent token names the pod and
// the member the events are from); the body is JSON or protobuf, maybe gzipped, bounded before and
// after inflating. Answers as OTLP asks: 200 with an ExportTraceServiceResponse in the request's
// encoding (partial_success when spans were refused), errors as a google.rpc.Status. Exports are
// taken one per token and two per server at a time (server/otlp/export-slots.ts), and each body's cost is
// bounded on its bytes before it is decoded (server/otlp/otlp-body-bounds.ts).
import { dropRestOfBody } from "./drop-rest-of-body";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { readBody } from "./json";
import type { Route, RouteContext } from "./route";
import {
  decodeJson,
  decodeProtobufSteps,
  encodeResponse,
  encodeStatus,
  UndecodableBody,
  type Encoding,
  type TraceRequest,
} from "../otlp/otlp-codec";
import { countSpans, MAX_SPANS_PER_REQUEST, readSpanSteps } from "../otlp/otlp-span";
import { TimeSlices } from "../db/time-slices";
import { ingestTraces, type IngestResult } from "../otlp/ingest-traces";
import { appendingAs } from "../tape/append-events";
import { installationEventIds } from "../deadlines/system-event-id";
import { boundJsonBody, boundProtobufBody } from "../otlp/otlp-body-bounds";
import { EXPORT_RETRY_AFTER_SECONDS, ExportSlots } from "../otlp/export-slots";
import { createIgnoredSpanCounter, type IgnoredSpanCounter } from "../otlp/ignored-spans";

export const OTLP_TRACES_PATH = "/v1/traces";
/**
 * The body as sent, and as inflated: a gzip bomb is refused at this many bytes out. Exporters
 * batch: the SDKs' default batch of 512 spans is a few hundred KiB, far below.
 */
export const OTLP_MAX_BODY_BYTES = 4 * 1024 * 1024;

const inflate = promisify(gunzip);
const counters = new WeakMap<AppContext, IgnoredSpanCounter>();
const ignoredSpans = (app: AppContext) =>
  counters.get(app) ?? (counters.set(app, createIgnoredSpanCounter()), counters.get(app)!);
const slotsByApp = new WeakMap<AppContext, ExportSlots>();
/** The exports this server has under way, per token and in all. */
export const exportSlots = (app: AppContext) =>
  slotsByApp.get(app) ?? (slotsByApp.set(app, new ExportSlots()), slotsByApp.get(app)!);

export const otlpRoutes: Route[] = [
  { method: "POST", path: /^\/v1\/traces$/, guard: "authenticated", run: receiveTraces },
];

async function receiveTraces({ app, req, res, identity }: RouteContext) {
  if (identity.kind !== "agent")
    throw new AppError(
      403,
      "agent_token_required",
      "OTLP spans are an agent's: send that agent's token (Authorization: Bearer pwa_…); its pod and member receive the events",
    );
  const encoding = requestEncoding(req);
  if (!encoding)
    throw new AppError(
      415,
      "unsupported_media_type",
      "send application/json or application/x-protobuf (OTLP/HTTP)",
    );
  const slots = exportSlots(app);
  const releaseToken = busyAnswer(res, () => slots.forToken(identity.tokenId));
  // Also on close: a sender that hangs up mid-body must not keep its token's slot.
  res.once("close", releaseToken);
  let releaseServer = () => {};
  try {
    const raw = await readBody(req, OTLP_MAX_BODY_BYTES);
    releaseServer = busyAnswer(res, () => slots.forServer());
    const slices = new TimeSlices();
    const request = await decode(encoding, await inflated(req, raw), slices);
    // Protobuf's spans were counted on the wire already; JSON's are counted here, decoded within the bounds.
    const total = countSpans(request);
    if (total > MAX_SPANS_PER_REQUEST)
      throw new AppError(
        413,
        "export_too_large",
        `${total} spans in one export; send at most ${MAX_SPANS_PER_REQUEST} (the exporter's batch size)`,
      );
    const { spans, malformed, problem } = await slices.run(readSpanSteps(request));
    const result = await ingestTraces(
      appendingAs(app.append, identity),
      { podId: identity.podId, actor: identity.memberId },
      spans,
      await installationEventIds(app.store),
      slices,
    );
    answer(app, identity.podId, encoding, res, malformed, problem, result);
  } finally {
    releaseServer();
    releaseToken();
  }
}

function busyAnswer(res: ServerResponse, take: () => () => void): () => void {
  try {
    return take();
  } catch (e) {
    if (e instanceof AppError && e.status === 429)
      res.setHeader("retry-after", String(EXPORT_RETRY_AFTER_SECONDS));
    throw e;
  }
}

function answer(
  app: AppContext,
  podId: string,
  encoding: Encoding,
  res: ServerResponse,
  malformed: number,
  problem: string | null,
  result: IngestResult,
) {
  ignoredSpans(app).add(podId, result.ignored);
  const rejected = malformed + result.rejected;
  const reply = encodeResponse(
    encoding,
    rejected
      ? { rejectedSpans: rejected, errorMessage: (problem ?? result.problem ?? "refused").slice(0, 1000) }
      : null,
  );
  res.setHeader("x-podwatch-ignored-spans", String(result.ignored.length));
  send(res, 200, reply);
}

function requestEncoding(req: IncomingMessage): Encoding | null {
  const type = String(req.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
  return type === "application/json"
    ? "json"
    : type === "application/x-protobuf" || type === "application/protobuf"
      ? "protobuf"
      : null;
}

async function inflated(req: IncomingMessage, raw: Buffer): Promise<Buffer> {
  const coding = String(req.headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase();
  if (coding === "identity" || coding === "") return raw;
  if (coding !== "gzip")
    throw new AppError(
      415,
      "unsupported_encoding",
      `Content-Encoding ${coding} is not supported; send gzip or none`,
    );
  try {
    return await inflate(raw, { maxOutputLength: OTLP_MAX_BODY_BYTES });
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw new AppError(413, "payload_too_large", `the body inflates past ${OTLP_MAX_BODY_BYTES} bytes`);
    throw new AppError(400, "invalid_gzip", `the body is not valid gzip: ${(e as Error).message}`);
  }
}

/** The body's cost is bounded on its bytes first (413/400), then it is decoded (protobuf: in slices, span by span). */
async function decode(encoding: Encoding, body: Buffer, slices: TimeSlices): Promise<TraceRequest> {
  try {
    if (encoding === "protobuf") {
      await boundProtobufBody(body, slices);
      return await slices.run(decodeProtobufSteps(body));
    }
    boundJsonBody(body);
    let value: unknown;
    try {
      value = JSON.parse(body.toString("utf8"));
    } catch (e) {
      throw new UndecodableBody(`the body is not valid JSON: ${(e as Error).message}`);
    }
    return decodeJson(value);
  } catch (e) {
    if (e instanceof UndecodableBody) throw new AppError(400, "invalid_otlp", e.message);
    throw e;
  }
}

function send(
  res: ServerResponse,
  status: number,
  answer: { body: Uint8Array | string; contentType: string },
) {
  res.writeHead(status, {
    "content-type": answer.contentType,
    "content-length": Buffer.byteLength(answer.body),
    "cache-control": "no-store",
  });
  res.end(answer.body);
}

/** gRPC's codes for our statuses, as google.rpc.Status carries them. */
const GRPC_CODE: Record<number, number> = {
  400: 3,
  401: 16,
  403: 7,
  404: 5,
  409: 9,
  413: 8,
  415: 3,
  422: 3,
  429: 8,
  503: 14,
};

/** Any refusal on /v1/traces (authentication and rate limits included) as OTLP/HTTP's Status body, in the request's encoding. */
export function sendOtlpError(req: IncomingMessage, res: ServerResponse, err: unknown) {
  if (res.headersSent) return void (res.writableEnded || res.destroy());
  const encoding = requestEncoding(req) ?? "json";
  if (!(err instanceof AppError)) {
    console.error("podwatch: unexpected error in an OTLP export", err);
    return send(res, 500, encodeStatus(encoding, 13, "internal error"));
  }
  // As elsewhere: the rest of a refused body is read and dropped (bounded), so the client can read the answer.
  if (err.status === 413) dropRestOfBody(res);
  send(res, err.status, encodeStatus(encoding, GRPC_CODE[err.status] ?? 2, `${err.code}: ${err.message}`));
}
