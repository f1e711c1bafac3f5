// Replaces a file all at once (a temporary file renamed over it), so a reader never sees half of
// it. The temporary name is random and created exclusively (O_EXCL): a name someone could guess
// (pid-based) lets them plant a symlink there and have us write through it.
import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";

export function writeFileAtomic(path: string, content: string | Uint8Array, mode: number) {
  const tmp = `${path}.${randomBytes(8).toString("hex")}.tmp`;
  try {
    writeFileSync(tmp, content, { mode, flag: "wx" });
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
}
