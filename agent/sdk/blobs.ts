// Content-addressed uploads: a file is named by its SHA-256, asked about with
// HEAD and sent with PUT only when the server lacks it. Uploads stream from
// disk and report bytes as they go.
import { createReadStream } from "node:fs";
import { hashChunks } from "../../server/wire/hash";
import type { PodwatchClient } from "./client";
import { PodwatchError } from "./errors";
import { safeJson } from "./http";

/** A file's SHA-256 and size, streamed from disk. */
export const hashFile = (path: string): Promise<{ sha256: string; size: number }> =>
  hashChunks(createReadStream(path));

export async function hasBlob(client: PodwatchClient, sha256: string): Promise<boolean> {
  try {
    await client.send("HEAD", `/api/v1/blobs/${sha256}`);
    return true;
  } catch (e) {
    if (e instanceof PodwatchError && e.status === 404) return false;
    throw e;
  }
}

/** PUTs `source` (a file path or bytes) as the blob `sha256`; `onBytes` hears each chunk sent. */
export async function uploadBlob(
  client: PodwatchClient,
  sha256: string,
  source: string | Buffer,
  size: number,
  onBytes: (n: number) => void = () => {},
): Promise<{ created: boolean }> {
  const res = await client.send("PUT", `/api/v1/blobs/${sha256}`, {
    headers: { "content-type": "application/octet-stream", "content-length": size },
    body: Buffer.isBuffer(source) ? source : { file: source },
    onBytes,
  });
  return { created: (safeJson(res.text) as { created?: boolean } | null)?.created === true };
}
