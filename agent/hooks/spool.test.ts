import { appendFileSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireLock } from "./file-lock";
import { Spool } from "./spool";

const dir = () => join(mkdtempSync(join(tmpdir(), "pw-spool-")), "spool");
const hook = (n: number, pad = 0) =>
  Spool.entry({ kind: "hook", payload: { hook_event_name: "PostToolUse", n, pad: "p".repeat(pad) } });
const ns = (s: Spool) =>
  s
    .locked(() => s.readFirstLocked(1 << 20))
    .map((l) => (l.entry?.kind === "hook" ? (l.entry.payload as { n: number }).n : null));

describe("the hook spool", () => {
  it("keeps entries in order in a file only the user can read, one per server and token", () => {
    const d = dir();
    const s = new Spool(d, "http://127.0.0.1:3000/", "pwa_a");
    s.append([hook(1)]);
    s.append([hook(2), hook(3)]);
    expect(ns(s)).toEqual([1, 2, 3]);
    expect(statSync(d).mode & 0o777).toBe(0o700);
    expect(statSync(s.file).mode & 0o777).toBe(0o600);
    expect(new Spool(d, "http://127.0.0.1:3000", "pwa_a").file).toBe(s.file);
    expect(new Spool(d, "http://127.0.0.1:3000", "pwa_b").file).not.toBe(s.file);
  });

  it("removes only the acknowledged prefix; entries appended meanwhile stay", () => {
    const s = new Spool(dir(), "http://x", "t");
    s.append([hook(1), hook(2)]);
    const read = s.locked(() => s.readFirstLocked(1 << 20));
    s.append([hook(3)]);
    s.locked(() => s.dropFirstLocked(read[0]!.bytes));
    expect(ns(s)).toEqual([2, 3]);
  });

  it("starts a new line after an entry cut short by a killed process, and reads the broken one as null", () => {
    const s = new Spool(dir(), "http://x", "t");
    s.append([hook(1)]);
    appendFileSync(s.file, '{"id":"x","kind":"hook","payl');
    s.append([hook(2)]);
    expect(ns(s)).toEqual([1, null, 2]);
  });

  it("is bounded: past its size the oldest entries go, counted once for the report", () => {
    const s = new Spool(dir(), "http://x", "t", 10_000);
    for (let i = 0; i < 40; i++) s.append([hook(i, 400)]);
    expect(statSync(s.file).size).toBeLessThanOrEqual(10_000);
    const kept = ns(s) as number[];
    expect(kept.at(-1)).toBe(39);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 40 - kept.length + i)); // the newest, in order
    expect(s.locked(() => s.takeDroppedLocked())).toBe(40 - kept.length);
    expect(s.locked(() => s.takeDroppedLocked())).toBe(0);
  });

  it("reads a batch of about maxBytes, but always at least one whole entry", () => {
    const s = new Spool(dir(), "http://x", "t");
    s.append([hook(1, 3000), hook(2), hook(3)]);
    expect(s.locked(() => s.readFirstLocked(100)).map((l) => l.bytes > 3000)).toEqual([true]);
    expect(JSON.parse(readFileSync(s.file, "utf8").split("\n")[0]!).payload.n).toBe(1);
  });
});

describe("the lock file", () => {
  it("is exclusive, and a lock left by a process that is gone is taken over", () => {
    const d = mkdtempSync(join(tmpdir(), "pw-lock-"));
    const path = join(d, "x.lock");
    const release = acquireLock(path, { waitMs: 0, staleMs: 60_000 })!;
    expect(acquireLock(path, { waitMs: 20, staleMs: 60_000 })).toBeNull();
    release();
    // A holder that died (pid 2^22 - 1 is beyond the default pid range, so no such process).
    appendFileSync(path, `${2 ** 22 - 1} 0 0.5`);
    const taken = acquireLock(path, { waitMs: 0, staleMs: 60_000 });
    expect(taken).not.toBeNull();
    taken!();
  });
});
