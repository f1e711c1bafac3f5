// Content-addressed files on disk under the data folder: a blob's name is the
// SHA-256 of its bytes, checked while it streams in; a mismatch stores nothing.
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import { AppError } from "../domain/errors";
import { hashFile } from "./hash-file";

/** Temp files this process is writing right now (another store on the same folder must not sweep them). */
const writing = new Set<string>();

export class BlobStore {
  constructor(private readonly dir: string, readonly maxBytes: number) {
    mkdirSync(join(dir, "tmp"), { recursive: true });
    this.sweepTemp();
  }

  /**
   * An upload cut short by a crash or SIGKILL leaves its temp file behind. Temp
   * files are named `<pid>-<uuid>`: those of processes no longer alive (and
   * unnamed ones, from older versions) are removed; a live process's are
   * kept, as another server on the same data folder may be mid-upload.
   */
  private sweepTemp() {
    const tmp = join(this.dir, "tmp");
    for (const name of readdirSync(tmp)) {
      const path = join(tmp, name);
      const pid = Number(/^(\d+)-/.exec(name)?.[1] ?? NaN);
      const owned = pid === process.pid ? writing.has(path) : Number.isInteger(pid) && isAlive(pid);
      if (!owned) rmSync(path, { force: true, recursive: true });
    }
  }

  path(sha256: string) {
    return join(this.dir, sha256.slice(0, 2), sha256);
  }

  stat(sha256: string): { size: number } | null {
    const p = this.path(sha256);
    return existsSync(p) ? { size: statSync(p).size } : null;
  }

  /** Streams `body` in; keeps it only if its SHA-256 is `sha256` and it fits. */
  async put(sha256: string, body: Readable, declaredLength?: number): Promise<{ size: number; created: boolean }> {
    const max = this.maxBytes;
    if (declaredLength !== undefined && declaredLength > max) throw tooBig(max);
    // Even a blob already stored is read and hashed whole: "already there" is said only to
    // someone who holds the content, never to whoever merely knows its hash.
    const tmp = join(this.dir, "tmp", `${process.pid}-${randomUUID()}`);
    writing.add(tmp);
    const hash = createHash("sha256");
    let size = 0;
    const out = createWriteStream(tmp);
    // A file error (disk full, a folder gone) can come while we wait for the next chunk, or after we
    // gave up and destroyed the stream with a write in flight: with no listener it would be an
    // uncaught exception that ends the server. It is kept here and thrown where the upload is.
    let failed: Error | null = null;
    out.on("error", (e) => (failed ??= e));
    try {
      // Read without destroying the request when we stop early: an over-limit upload gets its
      // 413 on a live connection (node then discards the rest of the body), where destroying
      // it made the client see a reset instead of the answer.
      for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > max) throw tooBig(max);
        hash.update(chunk);
        if (failed) throw failed;
        if (!out.write(chunk)) await once(out, "drain");
      }
      if (failed) throw failed;
      out.end();
      await finished(out);
      const actual = hash.digest("hex");
      if (actual !== sha256) throw new AppError(400, "hash_mismatch", `the content's SHA-256 is ${actual}, not ${sha256}; nothing was stored`);
      if (this.stat(sha256)) return { size, created: false };
      mkdirSync(join(this.dir, sha256.slice(0, 2)), { recursive: true });
      renameSync(tmp, this.path(sha256));
      return { size, created: true };
    } finally {
      out.destroy();
      rmSync(tmp, { force: true });
      writing.delete(tmp);
    }
  }

  /** Re-reads a stored blob and checks its bytes still hash to its name. */
  async verify(sha256: string): Promise<{ ok: boolean; size: number } | null> {
    if (!this.stat(sha256)) return null;
    const actual = await hashFile(this.path(sha256));
    return { ok: actual.sha256 === sha256, size: actual.size };
  }

  open(sha256: string) {
    return createReadStream(this.path(sha256));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // alive, another user's
  }
}

const tooBig = (max: number) => new AppError(413, "blob_too_large", `blobs are limited to ${max} bytes (PODWATCH_BLOB_MAX_BYTES)`);
