// One HTTP exchange on node:http(s) — not fetch, whose first use costs an agent's
// every CLI command ~100 ms of start-up. Bodies may stream from a file, with progress.
import { createReadStream } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { PodwatchError } from "./errors";

export type Exchange = {
  method: string;
  url: string;
  headers: Record<string, string | number>;
  /** A string or bytes, or `{ file }` to stream from disk. */
  body?: string | Buffer | { file: string };
  signal?: AbortSignal;
  onBytes?: (n: number) => void;
  /** Give up when the connection is silent this long (a long-poll passes its wait plus a margin). */
  idleMs?: number;
};
export type Answer = { status: number; headers: IncomingHttpHeaders; text: string };

const DEFAULT_IDLE_MS = 60_000;

export function exchange(x: Exchange): Promise<Answer> {
  const url = new URL(x.url);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    let answered = false;
    const fail = (e: Error) =>
      reject(
        x.signal?.aborted
          ? abortError()
          : e.name === "AbortError" || e instanceof PodwatchError
            ? e
            : unreachable(x.url, e),
      );
    const req = send(url, { method: x.method, headers: x.headers, signal: x.signal }, (res) => {
      answered = true; // from here the response decides, even if the server stopped reading our body
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", fail);
    });
    // A connection that went silent (a dropped NAT mapping, a sleeping laptop) must not hang a wait forever.
    req.setTimeout(x.idleMs ?? DEFAULT_IDLE_MS, () =>
      req.destroy(
        new PodwatchError(
          0,
          "timeout",
          `no answer from ${url.origin} for ${Math.round((x.idleMs ?? DEFAULT_IDLE_MS) / 1000)} s`,
        ),
      ),
    );
    req.on("error", (e) => void (answered || fail(e)));
    if (x.body === undefined || typeof x.body === "string" || Buffer.isBuffer(x.body)) {
      if (x.body !== undefined) x.onBytes?.(Buffer.byteLength(x.body));
      return void req.end(x.body);
    }
    (req as typeof req & { strictContentLength: boolean }).strictContentLength = true; // a file that shrinks or grows mid-upload fails at once, not after a timeout
    const file = createReadStream(x.body.file);
    file.on("data", (c) => x.onBytes?.((c as Buffer).length));
    file.on("error", (e) => req.destroy(e));
    file.pipe(req);
  });
}

/** Only 2xx is success: a redirect means PODWATCH_URL points somewhere else, and says where. */
export function redirectError(res: Answer, what: string): PodwatchError {
  return new PodwatchError(
    res.status,
    `http_${res.status}`,
    `${what} was redirected (${res.status}) to ${res.headers.location ?? "elsewhere"}; set PODWATCH_URL to the server's own address`,
  );
}

/** The body as JSON, or null when it is empty or not JSON. */
export function safeJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const abortError = () => Object.assign(new Error("aborted"), { name: "AbortError" });
const unreachable = (url: string, e: Error) =>
  new PodwatchError(0, "unreachable", `cannot reach podwatch at ${new URL(url).origin}: ${e.message}`);
