// Blobs as files named by their SHA-256, under the data folder or a folder every
// node shares (PODWATCH_BLOB_DIR). An upload streams into its own temp file in
// the same folder and is linked into place whole, so readers, other processes and
// other machines never see half a blob; it is fsynced before it is named, and its
// folder after, so a power cut cannot leave a short file under a blob's name.
import { randomUUID } from "node:crypto";
import {
  createReadStream,
  createWriteStream,
  linkSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { open, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { once } from "node:events";
import { finished } from "node:stream/promises";
import {
  hashMismatch,
  readHashed,
  tooBig,
  type BlobPut,
  type BlobStore,
  type PutOptions,
} from "./blob-store";

/** Temp files this process is writing right now (another store on the same folder must not sweep them). */
const writing = new Set<string>();

/** In a shared folder, a temp file untouched this long belongs to an upload that died (requests time out long before). */
export const SHARED_TEMP_STALE_MS = 60 * 60 * 1000;

export class FileBlobStore implements BlobStore {
  /** `shared`: the folder is PODWATCH_BLOB_DIR, which processes on other machines write too. */
  constructor(
    private readonly dir: string,
    readonly maxBytes: number,
    private readonly shared = false,
  ) {
    mkdirSync(join(dir, "tmp"), { recursive: true });
    this.sweepTemp();
  }

  /**
   * An upload cut short by a crash or SIGKILL leaves its temp file behind. Temp files are
   * named `<pid>-<uuid>`. In the node's own data folder, those of processes no longer alive
   * (and unnamed ones, from older versions) are removed; a live process's are kept, as another
   * server on the same data folder may be mid-upload. In a shared folder a pid of another host
   * means nothing here: only temp files nobody has written to for an hour are removed.
   */
  private sweepTemp() {
    const tmp = join(this.dir, "tmp");
    const staleBefore = Date.now() - SHARED_TEMP_STALE_MS;
    for (const name of readdirSync(tmp)) {
      const path = join(tmp, name);
      if (writing.has(path)) continue;
      const pid = Number(/^(\d+)-/.exec(name)?.[1] ?? NaN);
      const abandoned = this.shared
        ? modifiedBefore(path, staleBefore)
        : pid === process.pid || !Number.isInteger(pid) || !isAlive(pid);
      if (abandoned) rmSync(path, { force: true, recursive: true });
    }
  }

  path(sha256: string) {
    return join(this.dir, sha256.slice(0, 2), sha256);
  }

  async stat(sha256: string): Promise<{ size: number } | null> {
    const s = await stat(this.path(sha256)).catch((e: NodeJS.ErrnoException) =>
      e.code === "ENOENT" ? null : Promise.reject(e),
    );
    return s ? { size: s.size } : null;
  }

  async put(sha256: string, body: Readable, { declaredLength }: PutOptions = {}): Promise<BlobPut> {
    if (declaredLength !== undefined && declaredLength > this.maxBytes) throw tooBig(this.maxBytes);
    const tmp = join(this.dir, "tmp", `${process.pid}-${randomUUID()}`);
    writing.add(tmp);
    const out = createWriteStream(tmp);
    // A file error (disk full, a folder gone) can come while we wait for the next chunk, or after we
    // gave up and destroyed the stream with a write in flight: with no listener it would be an
    // uncaught exception that ends the server. It is kept here and thrown where the upload is.
    let failed: Error | null = null;
    out.on("error", (e) => (failed ??= e));
    try {
      const { sha256: actual, size } = await readHashed(body, this.maxBytes, (chunk) => {
        if (failed) throw failed;
        if (!out.write(chunk)) return once(out, "drain");
      });
      if (failed) throw failed;
      out.end();
      await finished(out);
      if (actual !== sha256) throw hashMismatch(actual, sha256);
      // On disk before it has its name: after a power cut a blob answered 201 is whole, not short or empty.
      await syncFile(tmp);
      const folder = join(this.dir, sha256.slice(0, 2));
      mkdirSync(folder, { recursive: true });
      const created = this.placeOnce(tmp, this.path(sha256), size);
      await syncFile(folder); // and so is its name
      return { size, created };
    } finally {
      out.destroy();
      rmSync(tmp, { force: true });
      writing.delete(tmp);
    }
  }

  /**
   * A hard link never replaces an existing name, so of several processes placing the same blob
   * at once exactly one creates it and the others learn it is there. On a filesystem without
   * hard links, a rename (atomic, and the bytes are the same) says "created" to each of them.
   * A file already there with another size is not the blob (one written by a version that did
   * not fsync, torn by a power cut): the whole upload, already checked, replaces it.
   */
  private placeOnce(tmp: string, final: string, size: number): boolean {
    try {
      linkSync(tmp, final);
      return true;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EEXIST") {
        if (statSync(final, { throwIfNoEntry: false })?.size === size) return false;
        renameSync(tmp, final);
        return true;
      }
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw e;
      const existed = statSync(final, { throwIfNoEntry: false }) !== undefined;
      renameSync(tmp, final);
      return !existed;
    }
  }

  open(sha256: string): Readable {
    return createReadStream(this.path(sha256));
  }
}

async function syncFile(path: string) {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const modifiedBefore = (path: string, before: number) =>
  (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0) < before;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"; // alive, another user's
  }
}
