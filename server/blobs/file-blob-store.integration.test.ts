// Blobs as files. An upload cut short by a SIGKILL leaves its temporary file behind;
// the next start removes it, but never a file another live process is still writing
// (in a folder shared by several machines, only one nobody has touched for an hour).
// Several uploads of one blob into one folder store it once.
import { spawn } from "node:child_process";
import { Readable } from "node:stream";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { request } from "node:http";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnServer, SPAWN_ADMIN_TOKEN } from "../testing/spawn-server";
import { FileBlobStore, SHARED_TEMP_STALE_MS } from "./file-blob-store";
import { verifyBlob } from "./blob-store";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "podwatch-blobs-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const until = async (what: () => boolean, ms = 20_000) => {
  for (const end = Date.now() + ms; !what(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > end) throw new Error("timed out");
};

/** The pid of a process that has exited (so no live process owns it, barring reuse). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((r) => child.once("exit", r));
  return child.pid!;
}

describe("blob store temporary files", () => {
  it("a SIGKILL during an upload leaves a partial temp file, which the next start removes", async () => {
    const dir = tempDir();
    const server = await spawnServer({
      DATABASE_URL: `file:${join(dir, "tape.db")}`,
      PODWATCH_AUTH_SECRET: "s".repeat(32),
    });
    const tmp = join(dir, "blobs", "tmp");
    // Half of a 1 MB upload, then nothing: the server is writing it to a temp file when it dies.
    const req = request(`${server.url}/api/v1/blobs/${"a".repeat(64)}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${SPAWN_ADMIN_TOKEN}`, "content-length": 1 << 20 },
    });
    req.on("error", () => {});
    req.write(Buffer.alloc(512 * 1024, 1));
    await until(() => readdirSync(tmp).some((f) => statSync(join(tmp, f)).size > 0));
    await server.stop("SIGKILL");
    req.destroy();
    expect(readdirSync(tmp)).toHaveLength(1);
    new FileBlobStore(join(dir, "blobs"), 1 << 20);
    expect(readdirSync(tmp)).toEqual([]);
  }, 60_000);

  it("removes temp files of dead processes and of older versions, keeps those of live ones", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "tmp"), { recursive: true });
    const stale = [`${await deadPid()}-${randomUUID()}`, randomUUID()];
    const live = `${process.ppid}-${randomUUID()}`; // another process, alive: it may be mid-upload
    for (const f of [...stale, live]) writeFileSync(join(dir, "tmp", f), "partial");
    new FileBlobStore(dir, 1024);
    expect(readdirSync(join(dir, "tmp"))).toEqual([live]);
  });

  it("in a shared folder (PODWATCH_BLOB_DIR) removes only temp files untouched for an hour, whatever their pid", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "tmp"), { recursive: true });
    // A pid from another machine says nothing about a process here: a dead pid's fresh file may be mid-upload there.
    const fresh = [`${await deadPid()}-${randomUUID()}`, randomUUID()];
    const old = [`${process.ppid}-${randomUUID()}`, `${await deadPid()}-${randomUUID()}`];
    for (const f of [...fresh, ...old]) writeFileSync(join(dir, "tmp", f), "partial");
    const longAgo = new Date(Date.now() - SHARED_TEMP_STALE_MS - 60_000);
    for (const f of old) utimesSync(join(dir, "tmp", f), longAgo, longAgo);
    new FileBlobStore(dir, 1024, true);
    expect(readdirSync(join(dir, "tmp")).sort()).toEqual([...fresh].sort());
  });

  it("of several uploads of one blob at once into one folder, exactly one creates it; all succeed", async () => {
    const dir = tempDir();
    const data = randomBytes(300_000);
    const name = createHash("sha256").update(data).digest("hex");
    // Two stores on one folder, as two nodes sharing PODWATCH_BLOB_DIR.
    const stores = [new FileBlobStore(dir, 1 << 20, true), new FileBlobStore(dir, 1 << 20, true)];
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        stores[i % 2]!.put(name, Readable.from([data.subarray(0, 1000), data.subarray(1000)])),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results.every((r) => r.size === data.length)).toBe(true);
    expect(await verifyBlob(stores[1]!, name)).toEqual({ ok: true, size: data.length });
    expect(readdirSync(join(dir, "tmp"))).toEqual([]);
  });

  it("a short file under a blob's name (torn by a power cut before it reached the disk) is replaced by the next upload", async () => {
    const dir = tempDir();
    const store = new FileBlobStore(dir, 1 << 20);
    const data = randomBytes(100_000);
    const name = createHash("sha256").update(data).digest("hex");
    mkdirSync(join(dir, name.slice(0, 2)), { recursive: true });
    writeFileSync(store.path(name), data.subarray(0, 4096));
    expect(await verifyBlob(store, name)).toEqual({ ok: false, size: 4096 });
    expect(await store.put(name, Readable.from([data]))).toEqual({ size: data.length, created: true });
    expect(await verifyBlob(store, name)).toEqual({ ok: true, size: data.length });
    expect(await store.put(name, Readable.from([data]))).toEqual({ size: data.length, created: false });
  });

  it("a file error while an upload streams in fails that upload, and does not end the process", async () => {
    const dir = join(tempDir(), "blobs");
    const store = new FileBlobStore(dir, 1024 * 1024);
    // The temp folder turns into a file: opening the upload's temp file fails while the body is still arriving.
    rmSync(join(dir, "tmp"), { recursive: true, force: true });
    writeFileSync(join(dir, "tmp"), "not a folder");
    const slowBody = Readable.from(
      (async function* () {
        for (let i = 0; i < 3; i++) {
          await new Promise((r) => setTimeout(r, 50));
          yield Buffer.alloc(1024, i);
        }
      })(),
    );
    // Before the fix the error had no listener: an uncaught exception, which vitest reports and a server dies of.
    await expect(store.put("e".repeat(64), slowBody)).rejects.toMatchObject({ code: "ENOTDIR" });
  });
});
