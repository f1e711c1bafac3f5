// One HTTP attempt of a delivery: POST with a timeout, no redirects followed,
// the host checked at connect time (guardedLookup), and only the first KiB of
// the answer read (kept for the log); the rest is dropped unread. What is kept
// (answer and error) is cleaned first: PostgreSQL stores no NUL in text, and a
// receiver's control characters have no place in the log.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { checkLiteralHost, guardedLookup, webhookMayReach } from "../shared/ssrf";

export const WEBHOOK_TIMEOUT_MS = 10_000;
const KEEP_BYTES = 1024;

export type AttemptResult = {
  ok: boolean;
  status: number | null;
  latencyMs: number;
  error: string | null;
  response: string | null;
};

/** Text a receiver chose, made storable and harmless: control characters (but \t and \n) and lone surrogates removed. */
export function storableText(text: string | null): string | null {
  if (text === null) return null;
  return (
    text.replace(
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      "",
    ) || null
  );
}

export function sendWebhook(
  target: string,
  headers: Record<string, string>,
  body: string,
  opts: { allowPrivate: boolean; timeoutMs?: number },
): Promise<AttemptResult> {
  const started = performance.now();
  const done = (r: Omit<AttemptResult, "latencyMs">): AttemptResult => ({
    ...r,
    error: storableText(r.error),
    response: storableText(r.response),
    latencyMs: Math.round(performance.now() - started),
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return resolve(done({ ok: false, status: null, error: "not a URL", response: null }));
    }
    const mayReach = webhookMayReach(opts.allowPrivate);
    try {
      checkLiteralHost(url, mayReach);
    } catch (e) {
      return resolve(done({ ok: false, status: null, error: (e as Error).message, response: null }));
    }
    const request = url.protocol === "https:" ? httpsRequest : url.protocol === "http:" ? httpRequest : null;
    if (!request)
      return resolve(done({ ok: false, status: null, error: "only http and https", response: null }));
    let settled = false;
    const finish = (r: Omit<AttemptResult, "latencyMs">) => {
      if (settled) return;
      settled = true;
      resolve(done(r));
    };
    const req = request(url, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      lookup: guardedLookup(mayReach),
      timeout: opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      agent: false,
    });
    const deadline = setTimeout(
      () => req.destroy(new Error(`timed out after ${(opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000} s`)),
      opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    );
    req.on("timeout", () =>
      req.destroy(new Error(`timed out after ${(opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS) / 1000} s`)),
    );
    req.on("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      finish({ ok: false, status: null, error: describe(e), response: null });
    });
    req.on("response", (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let kept = 0;
      const end = () => {
        clearTimeout(deadline);
        const ok = status >= 200 && status < 300;
        const location =
          status >= 300 && status < 400 && res.headers.location
            ? ` (redirects are not followed: ${String(res.headers.location).slice(0, 200)})`
            : "";
        finish({
          ok,
          status,
          error: ok ? null : `HTTP ${status}${location}`,
          response: Buffer.concat(chunks).toString("utf8") || null,
        });
        res.destroy();
      };
      res.on("data", (chunk: Buffer) => {
        if (kept < KEEP_BYTES) {
          chunks.push(chunk.subarray(0, KEEP_BYTES - kept));
          kept += Math.min(chunk.length, KEEP_BYTES - kept);
        }
        if (kept >= KEEP_BYTES) end();
      });
      res.on("end", end);
      res.on("error", end);
    });
    req.end(body);
  });
}

function describe(e: NodeJS.ErrnoException): string {
  if (e.code === "ECONNREFUSED") return "connection refused";
  if (e.code === "ENOTFOUND") return "host not found";
  if (e.code === "ECONNRESET") return "connection reset";
  return (e.message || String(e)).slice(0, 300);
}
