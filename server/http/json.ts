// The custom server's JSON answers (node:http, no framework: this is the agent API's hot path).
// Reading a body is the shared reader's (server/shared/read-json.ts), re-exported here for the
// routes, which take both from one place.
import { dropRestOfBody } from "./drop-rest-of-body";
import type { ServerResponse } from "node:http";
import { AppError } from "../domain/errors";
import type { ErrorBody } from "../wire/errors";
import { sendText } from "./compress";

export {
  jsonRefusal,
  MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
  parseJsonBytes,
  parseWith,
  readBody,
  readJsonBody,
  tooLarge,
} from "../shared/read-json";

const JSON_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  sendText(res, status, JSON_HEADERS, JSON.stringify(body));
}

/** An answer whose JSON text is already made (a large one, written in slices: server/db/json-in-slices.ts). */
export function sendJsonText(res: ServerResponse, status: number, text: string) {
  sendText(res, status, JSON_HEADERS, text);
}

export function sendError(res: ServerResponse, err: unknown) {
  // A handler that failed after answering (e.g. its request was refused while it streamed) has nothing left to say.
  if (res.headersSent) return void (res.writableEnded || res.destroy());
  if (err instanceof AppError) {
    // The rest of a refused body is read and dropped (bounded), so the client can read this answer.
    if (err.status === 413) dropRestOfBody(res);
    return sendJson(res, err.status, {
      error: { code: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}) },
    } satisfies ErrorBody);
  }
  console.error("podwatch: unexpected error", err);
  sendJson(res, 500, { error: { code: "internal", message: "internal error" } } satisfies ErrorBody);
}
