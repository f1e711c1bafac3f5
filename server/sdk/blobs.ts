// Content-addressed uploads: a file is named by its SHA-256, asked about with
// HEAD and sent with PUT only when the server lacks it. Uploads stream from
// disk (a 20 MB log never sits in memory) and report bytes as they go.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { PodwatchClient } from "./client";
import { PodwatchError } from "./errors";

export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest("hex"), size };
}

export async function hasBlob(client: PodwatchClient, sha256: string): Promise<boolean> {
  try {
    const res = await fetch(`${client.url}/api/v1/blobs/${sha256}`, { method: "HEAD", headers: { authorization: `Bearer ${client.options.token}` } });
    if (res.status === 404) return false;
    if (res.ok) return true;
    throw new PodwatchError(res.status, `http_${res.status}`, `HEAD /api/v1/blobs/${sha256} answered ${res.status}`);
  } catch (e) {
    if (e instanceof PodwatchError) throw e;
    throw new PodwatchError(0, "unreachable", `cannot reach podwatch at ${client.url}: ${(e as Error).message}`);
  }
}

/** PUTs `source` (a file path or bytes) as the blob `sha256`; `onBytes` hears each chunk sent. */
export function uploadBlob(client: PodwatchClient, sha256: string, source: string | Buffer, size: number, onBytes: (n: number) => void = () => {}): Promise<{ created: boolean }> {
  const url = new URL(`${client.url}/api/v1/blobs/${sha256}`);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: "PUT", headers: { authorization: `Bearer ${client.options.token}`, "content-type": "application/octet-stream", "content-length": size } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: { created?: boolean; error?: { code: string; message: string } } = {};
        try {
          json = JSON.parse(text);
        } catch {}
        if (res.statusCode! >= 400) reject(new PodwatchError(res.statusCode!, json.error?.code ?? `http_${res.statusCode}`, json.error?.message ?? `upload of ${sha256} answered ${res.statusCode}`));
        else resolve({ created: json.created === true });
      });
    });
    req.on("error", (e) => reject(new PodwatchError(0, "unreachable", `upload to ${client.url} failed: ${e.message}`)));
    if (Buffer.isBuffer(source)) {
      onBytes(source.length);
      return void req.end(source);
    }
    const file = createReadStream(source);
    file.on("data", (c) => onBytes((c as Buffer).length));
    file.on("error", (e) => req.destroy(e));
    file.pipe(req);
  });
}
