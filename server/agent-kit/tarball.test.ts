// The tar writer, read back by the system's own tar: sizes on and off the 512-byte blocks, a file's
// mode, and the same files giving the same bytes.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tarball } from "./tarball";

const dir = mkdtempSync(join(tmpdir(), "podwatch-tar-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("tarball", () => {
  const files = [
    { path: "package/empty.txt", bytes: Buffer.alloc(0) },
    { path: "package/block.bin", bytes: Buffer.alloc(512, 7) },
    { path: "package/bin/run.mjs", bytes: Buffer.from("#!/usr/bin/env node\n".repeat(30)), mode: 0o755 },
  ];

  it("is read back file by file by tar, with each file's bytes and mode", async () => {
    writeFileSync(join(dir, "t.tgz"), await tarball(files));
    execFileSync("tar", ["-xzf", "t.tgz"], { cwd: dir });
    for (const f of files) expect(readFileSync(join(dir, f.path)).equals(f.bytes), f.path).toBe(true);
    expect(statSync(join(dir, "package/bin/run.mjs")).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, "package/empty.txt")).mode & 0o777).toBe(0o644);
  });

  it("gives the same bytes for the same files (a stable ETag)", async () => {
    expect((await tarball(files)).equals(await tarball(files))).toBe(true);
  });

  it("refuses a path ustar cannot hold as a name", async () => {
    await expect(tarball([{ path: `package/${"x".repeat(100)}`, bytes: Buffer.alloc(1) }])).rejects.toThrow(
      /too long/,
    );
  });
});
