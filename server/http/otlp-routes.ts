// POST /v1/traces, /v1/logs, /v1/metrics: OTLP/HTTP, where any OpenTelemetry SDK or collector (and
// Claude Code, Codex and Gemini CLI) sends spans, log records and metrics when pointed at podwatch.
// Authenticated and rate limited like the agent API (its agent token names the pod and the member
// the events are from); the body is JSON or protobuf, maybe gzipped, bounded before and after
// inflating. Answers as OTLP asks: 200 with an Export…ServiceResponse in the request's encoding
// (partial_success when items were refused), errors as a google.rpc.Status. Exports are taken one
// per token and two per server at a time (server/otlp/export-slots.ts), and each body's cost is
// bounded on its bytes before it is decoded (server/otlp/otlp-body-bounds.ts). The three signals
// share this door: only their codecs and what they map to differ (otlp-doors.ts).
import { dropRestOfBody } from "./drop-rest-of-body";
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { readBody } from "./json";
import type { Route, RouteContext } from "./route";
import { encodeStatus, UndecodableBody, type Encoding } from "../otlp/otlp-codec";
import { MAX_SPANS_PER_REQUEST } from "../otlp/otlp-span";
import { TimeSlices } from "../db/time-slices";
import { boundJsonBody, boundProtobufBody } from "../otlp/otlp-body-bounds";
import { EXPORT_RETRY_AFTER_SECONDS, ExportSlots } from "../otlp/export-slots";
import { otlpDoors, type OtlpDoor } from "../otlp/otlp-doors";

/** The paths of OTLP/HTTP's signals: fixed by the protocol, outside /api/v1. */
export const OTLP_PATHS: ReadonlySet<string> = new Set(otlpDoors.map((d) => d.path));
/**
 * The body as sent, and as inflated: a gzip bomb is refused at this many bytes out. Exporters
 * batch: the SDKs' default batch of 512 spans is a few hundred KiB, far below.
 */
export const OTLP_MAX_BODY_BYTES = 4 * 1024 * 1024;

const inflate = promisify(gunzip);
const slotsByApp = new WeakMap<AppContext, ExportSlots>();
/** The exports this server has under way, per token and in all. */
export const exportSlots = (app: AppContext) =>
  slotsByApp.get(app) ?? (slotsByApp.set(app, new ExportSlots()), slotsByApp.get(app)!);

export const otlpRoutes: Route[] = otlpDoors.map((door) => ({
  method: "POST",
  path: new RegExp(`^${door.path.replace(/\//g, "\\/")}$`),
  guard: "authenticated",
  run: (ctx: RouteContext) => receiveExport(door, ctx),
}));

async function receiveExport(door: OtlpDoor, { app, req, res, identity }: RouteContext) {
  if (identity.kind !== "agent")
    throw new AppError(
      403,
      "agent_token_required",
      `OTLP ${door.units} are an agent's: send that agent's token (Authorization: Bearer pwa_…); its pod and member receive the events`,
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
    const request = await decode(door, encoding, await inflated(req, raw), slices);
    // Protobuf's items were counted on the wire already; JSON's are counted here, decoded within the bounds.
    const total = door.count(request);
    if (total > MAX_SPANS_PER_REQUEST)
      throw new AppError(
        413,
        "export_too_large",
        `${total} ${door.units} in one export; send at most ${MAX_SPANS_PER_REQUEST} (the exporter's batch size)`,
      );
    const result = await door.ingest(app, identity, request, slices);
    res.setHeader(result.header[0], String(result.header[1]));
    const reply = door.respond(
      encoding,
      result.rejected
        ? { rejected: result.rejected, errorMessage: (result.problem ?? "refused").slice(0, 1000) }
        : null,
    );
    send(res, 200, reply);
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

/** The body's cost is bounded on its bytes first (413/400), then it is decoded (protobuf: in slices, item by item). */
async function decode<R>(
  door: OtlpDoor<R>,
  encoding: Encoding,
  body: Buffer,
  slices: TimeSlices,
): Promise<R> {
  try {
    if (encoding === "protobuf") {
      await boundProtobufBody(body, slices, door.wire);
      return await slices.run(door.decodeProtobufSteps(body));
    }
    boundJsonBody(body);
    let value: unknown;
    try {
      value = JSON.parse(body.toString("utf8"));
    } catch (e) {
      throw new UndecodableBody(`the body is not valid JSON: ${(e as Error).message}`);
    }
    return door.decodeJson(value);
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

/** Any refusal on an OTLP path (authentication and rate limits included) as OTLP/HTTP's Status body, in the request's encoding. */
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
