// A lock file between `podwatch hook` processes that Claude Code starts at once (parallel tool
// calls fire their hooks together). Created exclusively with our pid inside; a lock whose process
// is gone (killed at its hook timeout) or that is older than `staleMs` is taken over.
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";

export type Release = () => void;

const pause = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms: number) => Atomics.wait(pause, 0, 0, ms);

function tryCreate(path: string): Release | null {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw e;
  }
  const token = `${process.pid} ${Date.now()} ${Math.random()}`;
  writeSync(fd, token);
  closeSync(fd);
  return () => {
    // Only our own lock: after a takeover (we were judged stale) the file is someone else's.
    if (readOrNull(path) === token) unlinkSync(path);
  };
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function isStale(path: string, content: string, staleMs: number): boolean {
  const pid = Number(content.split(" ")[0]);
  const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
  if (age > staleMs) return true;
  if (!Number.isInteger(pid) || pid <= 0) return age > 1000; // half-written by a process that died between open and write
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Moves a stale lock aside, and only if it is still the one judged stale (another process may have replaced it). */
function breakStale(path: string, content: string) {
  const aside = `${path}.stale.${process.pid}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  if (readOrNull(aside) !== content)
    renameSync(aside, path); // someone's fresh lock: put it back
  else unlinkSync(aside);
}

/** Takes the lock, waiting up to `waitMs` for its holder; null when it stayed held. */
export function acquireLock(path: string, o: { waitMs: number; staleMs: number }): Release | null {
  const until = Date.now() + o.waitMs;
  for (let delay = 2; ; delay = Math.min(50, delay * 2)) {
    const release = tryCreate(path);
    if (release) return release;
    const content = readOrNull(path);
    if (content !== null && isStale(path, content, o.staleMs)) {
      breakStale(path, content);
      continue;
    }
    if (Date.now() >= until) return null;
    sleepSync(Math.min(delay, Math.max(1, until - Date.now())));
  }
}
