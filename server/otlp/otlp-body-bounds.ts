// What one OTLP export may hold, judged on its bytes before anything is decoded, so that a body
// within the size cap cannot still cost the server hundreds of megabytes and a stalled event loop.
import { AppError } from "../domain/errors";
import { jsonRefusal, MAX_JSON_DEPTH } from "../shared/read-json";
import { jsonTextProblem } from "../shared/json-text";
import { MAX_SPANS_PER_REQUEST } from "./otlp-span";
import { scanRequestSteps, TRACES_WIRE, type WireSchema } from "./otlp-wire-scan";
import type { TimeSlices } from "../db/time-slices";

/**
 * Messages (spans, attributes and their values, events, links…) or JSON objects and arrays in one
 * export. Real spans cost ~40 bytes an attribute, so a full 4 MiB body holds ~100,000 attributes,
 * ~200,000 messages: this is twice that. At the bound decoding builds ~20 MB in ~50 ms; an
 * attacker's 4 MiB of empty messages would have been 2 million.
 */
export const MAX_ITEMS_PER_REQUEST = 400_000;
/** Nested messages: the request's own five levels, then attribute values inside values (~29 deep). */
const MAX_PROTOBUF_DEPTH = 64;

const tooMany = (what: string) =>
  new AppError(
    413,
    "export_too_large",
    `this export holds more than ${what}; send smaller batches (an SDK's default batch is 512 records)`,
  );

/** One signal's request on the wire: its messages, what its bounded unit is called, the request's name. */
export type WireSignal = { wire: WireSchema; units: string; request: string };
export const TRACES_SIGNAL: WireSignal = {
  wire: TRACES_WIRE,
  units: "spans",
  request: "ExportTraceServiceRequest",
};

/** Refuses (413 / 400) a protobuf body that would decode past the bounds, before it is decoded; walked in slices. */
export async function boundProtobufBody(bytes: Uint8Array, slices: TimeSlices, signal = TRACES_SIGNAL) {
  const scan = await slices.run(
    scanRequestSteps(bytes, signal.wire, {
      maxSpans: MAX_SPANS_PER_REQUEST,
      maxItems: MAX_ITEMS_PER_REQUEST,
      maxDepth: MAX_PROTOBUF_DEPTH,
    }),
  );
  if (scan.ok) return;
  if (scan.passed === "spans") throw tooMany(`${MAX_SPANS_PER_REQUEST} ${signal.units}`);
  if (scan.passed === "items")
    throw tooMany(`${MAX_ITEMS_PER_REQUEST} messages (${signal.units}, attributes, values…)`);
  if (scan.passed === "depth")
    throw new AppError(400, "invalid_otlp", `messages nest deeper than ${MAX_PROTOBUF_DEPTH} levels`);
  throw new AppError(400, "invalid_otlp", `not an ${signal.request}: ${scan.message}`);
}

/** Refuses a JSON body as the rest of the API does (depth, NUL, lone surrogates), and one with more objects and arrays than the bound. */
export function boundJsonBody(bytes: Uint8Array) {
  const problem = jsonTextProblem(bytes, MAX_JSON_DEPTH, MAX_ITEMS_PER_REQUEST);
  if (problem === "too_many_containers") throw tooMany(`${MAX_ITEMS_PER_REQUEST} JSON objects and arrays`);
  if (problem) throw jsonRefusal(problem);
}

/** Whether the text opens more than `max` objects and arrays outside its strings (the API's one pass over JSON text). */
export const jsonContainersPast = (bytes: Uint8Array, max: number): boolean =>
  jsonTextProblem(bytes, Infinity, max) === "too_many_containers";
