// Reading a JSON request body, for every door that takes one (the agent API's routes, Claude
// Code's hooks, OTLP, remote MCP): bounded in bytes while it streams, judged on its raw bytes
// (depth, NUL, lone surrogates) before it is parsed, and parsed with a zod schema into a 400
// that names the field. No framework: this is the agent API's hot path.
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { AppError, type ErrorIssue } from "../domain/errors";
import { jsonTextProblem, type JsonTextProblem } from "./json-text";

export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Deeper than any event body may nest (64 levels) plus the request around it. */
export const MAX_JSON_DEPTH = 128;

export const tooLarge = (max: number) =>
  new AppError(413, "payload_too_large", `request body exceeds ${max} bytes`);

/**
 * The whole body, at most `max` bytes; past that it rejects with 413 and the rest is discarded as
 * it arrives (`head`, if given, is handed what came within the limit first).
 */
export function readBody(req: IncomingMessage, max: number, head?: (bytes: Buffer) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers["content-length"] ?? 0) > max) return reject(tooLarge(max));
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      // Not req.destroy(): that would cut the connection before the 413 reaches the client.
      req.off("data", onData).off("end", onEnd);
      head?.(Buffer.concat(chunks));
      chunks.length = 0;
      req.resume();
      reject(tooLarge(max));
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req
      .on("data", onData)
      .on("end", onEnd)
      .on("error", () => reject(new AppError(400, "request_aborted", "the request body was cut off")));
  });
}

export async function readJsonBody(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  return parseJsonBytes(await readBody(req, maxBytes));
}

/** A body read whole, judged (depth, NUL, lone surrogates) and parsed; 400 or 413 when it is not JSON we take. */
export function parseJsonBytes(bytes: Buffer): unknown {
  const problem = jsonTextProblem(bytes, MAX_JSON_DEPTH);
  if (problem) throw jsonRefusal(problem);
  const text = bytes.toString("utf8");
  if (!text.trim()) throw new AppError(400, "invalid_json", "request body is empty; send JSON");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new AppError(400, "invalid_json", `request body is not valid JSON: ${(e as Error).message}`);
  }
  // A key spelled neither plainly nor with an escape cannot be there: most bodies skip the walk.
  const proto = text.includes("__proto__") || text.includes("\\u") ? pathOfKey(value, "__proto__") : null;
  if (proto)
    throw new AppError(
      400,
      "invalid_request",
      `invalid request: ${proto}: the key __proto__ is not allowed (JavaScript would drop it)`,
      [{ path: proto, message: "the key __proto__ is not allowed" }],
    );
  return value;
}

export const jsonRefusal = (problem: NonNullable<JsonTextProblem>) =>
  problem === "too_many_containers"
    ? new AppError(
        413,
        "payload_too_large",
        "request body holds more objects and arrays than podwatch takes in one request",
      )
    : problem === "too_deep"
      ? new AppError(
          400,
          "json_too_deep",
          `request body nests deeper than ${MAX_JSON_DEPTH} levels (the limit)`,
        )
      : problem === "nul"
        ? new AppError(
            400,
            "nul_character",
            "request body contains the character U+0000 (NUL), which podwatch cannot store",
          )
        : new AppError(
            400,
            "lone_surrogate",
            "request body contains a lone UTF-16 surrogate escape (e.g. \\ud800 without its pair), which is no character",
          );

type Node = { value: object; key: string; up: Node | null };
const isContainer = (v: unknown): v is object => typeof v === "object" && v !== null;

/** The dotted path of the first `key` anywhere in a parsed JSON value, or null. Iterative; visits only containers. */
function pathOfKey(value: unknown, key: string): string | null {
  const stack: Node[] = isContainer(value) ? [{ value, key: "", up: null }] : [];
  while (stack.length) {
    const node = stack.pop()!;
    const v = node.value as Record<string, unknown>;
    if (!Array.isArray(v) && Object.hasOwn(v, key)) return dotted({ value: v, key, up: node });
    for (const k in v) if (isContainer(v[k])) stack.push({ value: v[k], key: k, up: node });
  }
  return null;
}

function dotted(node: Node): string {
  const keys: string[] = [];
  for (let n: Node | null = node; n?.up; n = n.up) keys.unshift(n.key);
  return keys.join(".");
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = "request"): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues: ErrorIssue[] = r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const first = issues[0]!;
  throw new AppError(
    400,
    "invalid_request",
    `invalid ${what}: ${first.path || "(root)"}: ${first.message}`,
    issues,
  );
}
