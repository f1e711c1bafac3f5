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
};

export function exchange(x: Exchange): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const url = new URL(x.url);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: x.method, headers: x.headers, signal: x.signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", (e) => reject(unreachable(x.url, e)));
    });
    req.on("error", (e) => reject(e.name === "AbortError" ? e : unreachable(x.url, e)));
    if (x.body === undefined || typeof x.body === "string" || Buffer.isBuffer(x.body)) {
      if (x.body !== undefined) x.onBytes?.(Buffer.byteLength(x.body));
      return void req.end(x.body);
    }
    const file = createReadStream(x.body.file);
    file.on("data", (c) => x.onBytes?.((c as Buffer).length));
    file.on("error", (e) => req.destroy(e));
    file.pipe(req);
  });
}

const unreachable = (url: string, e: Error) => new PodwatchError(0, "unreachable", `cannot reach podwatch at ${new URL(url).origin}: ${e.message}`);
