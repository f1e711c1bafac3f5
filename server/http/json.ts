// Small helpers for the custom server's JSON endpoints (node:http, no framework:
// this is the agent API's hot path).
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { AppError, type ErrorIssue } from "../domain/errors";

export const MAX_BODY_BYTES = 8 * 1024 * 1024;

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(text);
}

export function readJsonBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > MAX_BODY_BYTES) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        reject(tooLarge());
      } else chunks.push(c);
    });
    req.on("error", reject);
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      if (!text.trim()) return reject(new AppError(400, "invalid_json", "request body is empty; send JSON"));
      try {
        resolve(JSON.parse(text));
      } catch (e) {
        reject(new AppError(400, "invalid_json", `request body is not valid JSON: ${(e as Error).message}`));
      }
    });
  });
}

const tooLarge = () => new AppError(413, "payload_too_large", `request body exceeds ${MAX_BODY_BYTES} bytes`);

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = "request"): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues: ErrorIssue[] = r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const first = issues[0]!;
  throw new AppError(400, "invalid_request", `invalid ${what}: ${first.path || "(root)"}: ${first.message}`, issues);
}

export function sendError(res: ServerResponse, err: unknown) {
  if (err instanceof AppError) {
    return sendJson(res, err.status, { error: { code: err.code, message: err.message, ...(err.issues ? { issues: err.issues } : {}) } });
  }
  console.error("podwatch: unexpected error", err);
  sendJson(res, 500, { error: { code: "internal", message: "internal error" } });
}
