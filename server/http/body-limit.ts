// Request bodies are capped while they stream in, before anything judges them:
// past the cap the server answers 413 and keeps no more bytes, chunked or not.
// Our own readers (readBody for JSON, the blob store) count as they read; the
// handlers we do not own (Better Auth, Next) get the request only once its
// whole body has arrived within the cap, so they never buffer more than it either.
import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError } from "../domain/errors";
import { jsonTextProblem } from "../shared/json-text";
import { jsonRefusal, MAX_JSON_DEPTH, sendError, tooLarge } from "./json";

/** Better Auth's bodies are an email and a password, at most a name: 64 KiB is generous. */
export const AUTH_MAX_BODY_BYTES = 64 * 1024;
/** What goes to Next (server actions): Next's own default limit for an action's body. */
export const WEB_MAX_BODY_BYTES = 1024 * 1024;

const declaredLength = (req: IncomingMessage) => Number(req.headers["content-length"] ?? 0);
const hasBody = (req: IncomingMessage) =>
  req.headers["transfer-encoding"] !== undefined || declaredLength(req) > 0;

/**
 * Calls `next` once the whole body has arrived within `max` bytes, nests no deeper than
 * MAX_JSON_DEPTH and holds no escaped NUL, with the body still there to be read as usual;
 * otherwise answers 413 (or 400) and `next` never runs.
 *
 * The bytes are taken where node:http's parser hands them to the request stream (its push()),
 * so nothing downstream sees, or buffers, a byte before the body has been judged.
 */
export function holdBody(req: IncomingMessage, res: ServerResponse, max: number, next: () => void) {
  if (declaredLength(req) > max) return sendError(res, tooLarge(max));
  if (!hasBody(req)) return next();
  const push = req.push;
  const chunks: Buffer[] = [];
  let size = 0;
  let refused: AppError | null = null;
  const refuse = (e: AppError) => {
    refused = e;
    chunks.length = 0;
    sendError(res, e);
  };
  req.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
    if (chunk !== null) {
      if (refused) return true; // dropped: the answer is on its way and the connection closes after it
      size += chunk.length;
      if (size > max) refuse(tooLarge(max));
      else chunks.push(chunk);
      return true; // keep reading: these bytes are ours to hold (up to max) or to drop
    }
    req.push = push;
    const body = Buffer.concat(chunks);
    // Better Auth and React parse these bodies (a deep one could cost them their stack) and store parts of them.
    const problem = refused ? null : jsonTextProblem(body, MAX_JSON_DEPTH);
    if (problem) refuse(jsonRefusal(problem));
    if (!refused && body.length) push.call(req, body, encoding);
    const more = push.call(req, null);
    if (!refused) next();
    return more;
  };
}
