// Which reducers made a checkpoint. A checkpoint is the fold's state after a seq, and the fold is
// the code under server/domain: change a reducer and an old checkpoint may no longer be what a
// replay makes. So each is stored under a hash of that code, read once per process; a server
// running other code neither reads nor trusts them (they are rebuilt lazily from the tape).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const DOMAIN = join(import.meta.dirname, "..", "domain");
const SOURCE = /\.ts$/;
const NOT_CODE = /\.test(-d)?\.ts$/;

let version: string | null | undefined;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? sourcesUnder(join(dir, e.name))
        : SOURCE.test(e.name) && !NOT_CODE.test(e.name)
          ? [join(dir, e.name)]
          : [],
    )
    .sort();
}

/** The fold's version, or null when its source cannot be read here (then no checkpoint is used: replays start at seq 1). */
export function foldVersion(): string | null {
  if (version !== undefined) return version;
  try {
    const hash = createHash("sha256");
    for (const file of sourcesUnder(DOMAIN))
      hash.update(file.slice(DOMAIN.length)).update("\0").update(readFileSync(file)).update("\0");
    version = hash.digest("hex").slice(0, 16);
  } catch {
    version = null;
  }
  return version;
}
