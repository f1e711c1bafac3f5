// The command hook's spool: what could not reach podwatch waits here, one JSON line per entry,
// in the order the agent produced it. One file per server URL + token (a hash names it), in a
// folder only the user can read (payloads hold prompts and tool input). Appends and the removal
// of replayed entries happen under a short lock; replaying is the job of whoever holds the
// replay lock (see replay-spool.ts). Bounded: past maxBytes the oldest entries are dropped and
// counted, and the count is reported once podwatch is reachable again.
import { createHash, randomUUID } from "node:crypto";
import {
  appendFileSync,
  existsSync,
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { acquireLock, type Release } from "./file-lock";
import { writeFileAtomic } from "./write-atomic";

/** A hook payload to post again (replay=1), or events for the events API (reports the hook made itself). */
export type SpoolEntry = { id: string; at: string } & (
  { kind: "hook"; payload: unknown } | { kind: "events"; events: Record<string, unknown>[] }
);
export type SpooledLine = { entry: SpoolEntry | null; bytes: number };

export const DEFAULT_SPOOL_MAX_BYTES = 50 * 1024 * 1024;
const SHORT_LOCK = { waitMs: 5000, staleMs: 30_000 };

export class Spool {
  readonly file: string;
  readonly replayLock: string;
  private readonly lockFile: string;
  private readonly droppedFile: string;

  constructor(
    readonly dir: string,
    url: string,
    token: string,
    private readonly maxBytes = DEFAULT_SPOOL_MAX_BYTES,
  ) {
    const key = createHash("sha256")
      .update(`${url.replace(/\/+$/, "")}\n${token}`)
      .digest("hex")
      .slice(0, 24);
    this.file = join(dir, `${key}.jsonl`);
    this.lockFile = join(dir, `${key}.lock`);
    this.replayLock = join(dir, `${key}.replay.lock`);
    this.droppedFile = join(dir, `${key}.dropped`);
  }

  /** A file in the spool folder that belongs to this server + token (the cached rule, transcript offsets). */
  sibling(suffix: string): string {
    return this.file.replace(/\.jsonl$/, suffix);
  }

  /** The folder, only the user's: mkdir's mode does nothing to one that exists, so an existing one is checked and tightened. */
  ensureDir() {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const st = statSync(this.dir);
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid)
      throw new Error(
        `the spool folder ${this.dir} belongs to another user (uid ${st.uid}); set PODWATCH_SPOOL_DIR to a folder of your own`,
      );
    if ((st.mode & 0o077) !== 0) chmodSync(this.dir, 0o700);
  }

  hasEntries(): boolean {
    return (statSync(this.file, { throwIfNoEntry: false })?.size ?? 0) > 0;
  }

  /** Runs `f` under the short lock (appends, reads and removals never interleave). */
  locked<T>(f: () => T): T {
    this.ensureDir();
    const release: Release | null = acquireLock(this.lockFile, SHORT_LOCK);
    if (!release) throw new Error(`the spool ${this.file} stayed locked for ${SHORT_LOCK.waitMs / 1000} s`);
    try {
      return f();
    } finally {
      release();
    }
  }

  static entry(
    e: { kind: "hook"; payload: unknown } | { kind: "events"; events: Record<string, unknown>[] },
  ): SpoolEntry {
    return { id: randomUUID(), at: new Date().toISOString(), ...e };
  }

  /** Appends (call under `locked`). */
  appendLocked(entries: SpoolEntry[]) {
    const text = entries.map((e) => `${JSON.stringify(e)}\n`).join("");
    const size = statSync(this.file, { throwIfNoEntry: false })?.size ?? 0;
    if (size + Buffer.byteLength(text) > this.maxBytes) this.shrinkLocked(Buffer.byteLength(text));
    // A process killed mid-append leaves a line without its newline: start ours on a line of its own.
    const glue = size > 0 && !this.endsWithNewline() ? "\n" : "";
    appendFileSync(this.file, glue + text, { mode: 0o600 });
  }

  append(entries: SpoolEntry[]) {
    this.locked(() => this.appendLocked(entries));
  }

  /** The first entries, up to about `maxBytes` (at least one); unreadable lines come back as null so they are removed too. */
  readFirstLocked(maxBytes: number): SpooledLine[] {
    const buf = this.readHead(maxBytes);
    const out: SpooledLine[] = [];
    let start = 0;
    for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
      const line = buf.subarray(start, nl).toString("utf8");
      out.push({ entry: parseEntry(line), bytes: nl + 1 - start });
      start = nl + 1;
    }
    return out;
  }

  /** Removes the first `bytes` (entries that were acknowledged): only the replayer removes, so the prefix is what it read. */
  dropFirstLocked(bytes: number) {
    if (bytes <= 0) return;
    const rest = readFileSync(this.file).subarray(bytes);
    this.rewrite(rest);
  }

  /** How many entries were dropped (overflow, unreadable, refused by the server) since the last report; resets it. */
  /** Whether a dropped count waits to be reported (read without the lock: a count written a moment later is told next time). */
  hasDropped(): boolean {
    return existsSync(this.droppedFile);
  }

  takeDroppedLocked(): number {
    const n = this.droppedLocked();
    if (n) rmSync(this.droppedFile, { force: true });
    return n;
  }

  countDroppedLocked(n: number) {
    if (n > 0) writeFileSync(this.droppedFile, String(this.droppedLocked() + n), { mode: 0o600 });
  }

  private droppedLocked(): number {
    try {
      return Number(readFileSync(this.droppedFile, "utf8")) || 0;
    } catch {
      return 0;
    }
  }

  /** Makes room for `incoming` bytes: keeps the newest entries within 80% of the bound (so a full spool is not rewritten on every append). */
  private shrinkLocked(incoming: number) {
    const all = readFileSync(this.file);
    const budget = Math.max(0, Math.floor(this.maxBytes * 0.8) - incoming);
    let cut = Math.max(0, all.length - budget);
    if (cut > 0) {
      const nl = all.indexOf(10, cut - 1);
      cut = nl === -1 ? all.length : nl + 1;
    }
    const dropped = all.subarray(0, cut).reduce((n, b) => n + (b === 10 ? 1 : 0), 0);
    this.rewrite(all.subarray(cut));
    this.countDroppedLocked(dropped);
  }

  private rewrite(content: Buffer) {
    writeFileAtomic(this.file, content, 0o600);
  }

  private readHead(maxBytes: number): Buffer {
    let fd: number;
    try {
      fd = openSync(this.file, "r");
    } catch {
      return Buffer.alloc(0);
    }
    try {
      const size = statSync(this.file).size;
      let buf = Buffer.alloc(Math.min(size, maxBytes));
      let n = readSync(fd, buf, 0, buf.length, 0);
      // One entry may be bigger than maxBytes (a large tool input): read on to its end.
      while (buf.subarray(0, n).indexOf(10) === -1 && n < size) {
        const more = Buffer.alloc(Math.min(size - n, maxBytes));
        const m = readSync(fd, more, 0, more.length, n);
        if (m <= 0) break;
        buf = Buffer.concat([buf.subarray(0, n), more.subarray(0, m)]);
        n += m;
      }
      return buf.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  }

  private endsWithNewline(): boolean {
    const fd = openSync(this.file, "r");
    try {
      const size = statSync(this.file).size;
      const b = Buffer.alloc(1);
      readSync(fd, b, 0, 1, size - 1);
      return b[0] === 10;
    } finally {
      closeSync(fd);
    }
  }
}

function parseEntry(line: string): SpoolEntry | null {
  try {
    const e = JSON.parse(line) as SpoolEntry;
    return e &&
      typeof e === "object" &&
      (e.kind === "hook" || (e.kind === "events" && Array.isArray(e.events)))
      ? e
      : null;
  } catch {
    return null;
  }
}
