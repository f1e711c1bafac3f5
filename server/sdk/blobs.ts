// Content-addressed uploads: a file is named by its SHA-256, asked about with
// HEAD and sent with PUT only when the server lacks it. Uploads stream from
// disk (a 20 MB log never sits in memory) and report bytes as they go.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import type { PodwatchClient } from "./client";
import { PodwatchError } from "./errors";
import { exchange, redirectError } from "./http";

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
  const res = await exchange({ method: "HEAD", url: `${client.url}/api/v1/blobs/${sha256}`, headers: { authorization: `Bearer ${client.options.token}` } });
  if (res.status === 404) return false;
  if (res.status >= 200 && res.status < 300) return true;
  if (res.status >= 300 && res.status < 400) throw redirectError(res, "HEAD /api/v1/blobs");
  throw new PodwatchError(res.status, `http_${res.status}`, `HEAD /api/v1/blobs/${sha256} answered ${res.status}`);
}

/** PUTs `source` (a file path or bytes) as the blob `sha256`; `onBytes` hears each chunk sent. */
export async function uploadBlob(client: PodwatchClient, sha256: string, source: string | Buffer, size: number, onBytes: (n: number) => void = () => {}): Promise<{ created: boolean }> {
  const res = await exchange({
    method: "PUT",
    url: `${client.url}/api/v1/blobs/${sha256}`,
    headers: { authorization: `Bearer ${client.options.token}`, "content-type": "application/octet-stream", "content-length": size },
    body: Buffer.isBuffer(source) ? source : { file: source },
    onBytes,
  });
  let json: { created?: boolean; error?: { code: string; message: string } } = {};
  try {
    json = JSON.parse(res.text);
  } catch {}
  if (res.status >= 300 && res.status < 400) throw redirectError(res, "PUT /api/v1/blobs");
  if (res.status >= 400) throw new PodwatchError(res.status, json.error?.code ?? `http_${res.status}`, json.error?.message ?? `upload of ${sha256} answered ${res.status}`);
  return { created: json.created === true };
}
