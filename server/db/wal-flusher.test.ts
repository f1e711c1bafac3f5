import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WalFlusher } from "./wal-flusher";

/** A file sync the test releases by hand: what the flusher does while the disk is busy. */
function heldSyncs() {
  const calls: { fd: number; release: () => void }[] = [];
  const sync = (fd: number) => new Promise<void>((resolve) => calls.push({ fd, release: resolve }));
  return { calls, sync };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("WalFlusher", () => {
  const dirs: string[] = [];
  const wal = () => {
    const dir = mkdtempSync(join(tmpdir(), "wal-flusher-"));
    dirs.push(dir);
    const path = join(dir, "x.db-wal");
    writeFileSync(path, "frames");
    return path;
  };
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("resolves a flush only once its sync has finished", async () => {
    const { calls, sync } = heldSyncs();
    const flusher = new WalFlusher(wal(), sync);
    let done = false;
    const flushed = flusher.flush().then(() => (done = true));
    await tick();
    expect(calls).toHaveLength(1);
    expect(done).toBe(false);
    calls[0]!.release();
    await flushed;
    expect(done).toBe(true);
    await flusher.close();
  });

  it("does not let a flush asked for during a sync ride on it: one more sync follows, shared by all who asked meanwhile", async () => {
    const { calls, sync } = heldSyncs();
    const flusher = new WalFlusher(wal(), sync);
    const first = flusher.flush();
    const late = [false, false];
    const second = flusher.flush().then(() => (late[0] = true));
    const third = flusher.flush().then(() => (late[1] = true));
    calls[0]!.release();
    await first;
    await tick();
    expect(late).toEqual([false, false]); // the sync that ended may have started before their writes
    expect(calls).toHaveLength(2);
    calls[1]!.release();
    await Promise.all([second, third]);
    expect(calls).toHaveLength(2);
    await flusher.close();
  });

  it("rejects the flushes of a failed sync, and the next flush syncs again", async () => {
    let fail = true;
    const flusher = new WalFlusher(wal(), async () => {
      if (fail) throw new Error("EIO");
    });
    await expect(flusher.flush()).rejects.toThrow("EIO");
    fail = false;
    await expect(flusher.flush()).resolves.toBeUndefined();
    await flusher.close();
  });

  it("syncs the real file by default", async () => {
    const flusher = new WalFlusher(wal());
    await expect(flusher.flush()).resolves.toBeUndefined();
    await flusher.close();
  });
});
