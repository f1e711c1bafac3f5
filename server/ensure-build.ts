// `npm start` builds the web app when needed: no build yet, or any file the build reads changed
// since the last build that succeeded (see build-inputs.ts).
import { spawnSync } from "node:child_process";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fingerprintInputs, readBuildInputs } from "./build-inputs";

export type NextBuild = (root: string) => void;

const markerPath = (root: string) => join(root, ".next", "podwatch-build.json");

function runNextBuild(root: string) {
  const r = spawnSync(join(root, "node_modules", ".bin", "next"), ["build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error("next build failed (see the output above)");
}

function builtFingerprint(root: string): string | null {
  try {
    return (
      (JSON.parse(readFileSync(markerPath(root), "utf8")) as { fingerprint?: string }).fingerprint ?? null
    );
  } catch {
    return null;
  }
}

/** Builds when stale; true when it built. Throws when the build fails. */
export async function ensureBuild(root: string, nextBuild: NextBuild = runNextBuild): Promise<boolean> {
  // Taken before the build: a file edited while it runs leaves the marker behind, so the next start rebuilds.
  let fingerprint: string | null = null;
  let why = "first start or sources changed";
  try {
    const inputs = await readBuildInputs(root);
    fingerprint = fingerprintInputs(root, inputs);
    if (fingerprint === builtFingerprint(root)) return false;
  } catch (e) {
    why = `cannot read the sources' imports: ${e instanceof Error ? e.message.split("\n")[0] : e}`;
  }
  console.log(`podwatch: building the web app (${why})…`);
  // Gone before the build starts: a half-finished build must never pass for a good one.
  rmSync(markerPath(root), { force: true });
  nextBuild(root);
  if (fingerprint) {
    const tmp = `${markerPath(root)}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ fingerprint, builtAt: new Date().toISOString() }));
    renameSync(tmp, markerPath(root));
  }
  return true;
}
