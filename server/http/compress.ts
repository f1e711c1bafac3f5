// Compressed answers for clients that accept them: a pod's state is a megabyte of JSON and
// a tenth of that gzipped. Compression runs on libuv's thread pool (zlib's async calls), so
// a large body does not hold the event loop; small bodies go out as they are.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { brotliCompress, constants, gzip } from "node:zlib";

/** Below this, compressing costs more than the bytes it saves. */
export const COMPRESS_MIN_BYTES = 1024;
/** Brotli at a fast quality: close to gzip's speed, smaller output; 11 (the default) takes seconds a megabyte. */
const BROTLI_QUALITY = 4;

export type Encoding = "br" | "gzip";

/** The encoding to answer in, from Accept-Encoding (q=0 refuses one); null: none. */
export function chooseEncoding(accept: string | string[] | undefined): Encoding | null {
  const offered = new Map<string, number>();
  for (const part of String(accept ?? "")
    .toLowerCase()
    .split(",")) {
    const [name, ...params] = part.trim().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    offered.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const wants = (name: Encoding) => (offered.get(name) ?? offered.get("*") ?? 0) > 0;
  return wants("br") ? "br" : wants("gzip") ? "gzip" : null;
}

function compress(encoding: Encoding, body: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, out: Buffer) => (error ? reject(error) : resolve(out));
    if (encoding === "gzip") return gzip(body, done);
    const params = {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    };
    brotliCompress(body, { params }, done);
  });
}

/**
 * Ends `res` with `text`, compressed when the request accepts it and the text is worth it.
 * The answer is written once compressed: a client gone meanwhile is not written to.
 */
export function sendText(res: ServerResponse, status: number, headers: OutgoingHttpHeaders, text: string) {
  const length = Buffer.byteLength(text);
  if (length < COMPRESS_MIN_BYTES) {
    // As text: node writes the head and a text body as one chunk (a Buffer body is a second one).
    res.setHeader("content-length", length);
    res.writeHead(status, headers);
    return void res.end(text);
  }
  const req = res.req as IncomingMessage | undefined;
  const body = Buffer.from(text);
  const encoding = chooseEncoding(req?.headers["accept-encoding"]);
  if (!encoding) {
    res.writeHead(status, { ...headers, "content-length": body.length });
    return void res.end(body);
  }
  compress(encoding, body).then(
    (out) => {
      if (res.destroyed || res.headersSent) return;
      res.writeHead(status, {
        ...headers,
        "content-encoding": encoding,
        vary: "accept-encoding",
        "content-length": out.length,
      });
      res.end(out);
    },
    (error) => {
      console.error("podwatch: compressing an answer failed; sending it as it is", error);
      if (res.destroyed || res.headersSent) return;
      res.writeHead(status, { ...headers, "content-length": body.length });
      res.end(body);
    },
  );
}
