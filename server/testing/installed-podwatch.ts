// Where a test that drives a real agent program (Claude Code, Codex, Gemini CLI) finds the
// `podwatch` command its hooks run: a folder to put first on the hook's PATH, holding an
// executable `podwatch`. Today it is this checkout's own CLI; tests call this rather than
// naming agent/bin, so they follow wherever the agent kit is installed from.
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PODWATCH_BIN } from "./run-cli";

/** A folder holding an executable `podwatch`; put it first on PATH. `serverUrl` is where the kit is served. */
export async function installedPodwatch(serverUrl: string): Promise<string> {
  void serverUrl;
  const dir = mkdtempSync(join(tmpdir(), "podwatch-bin-"));
  const bin = join(dir, "podwatch");
  writeFileSync(bin, `#!/bin/sh\nexec "${process.execPath}" "${PODWATCH_BIN}" "$@"\n`);
  chmodSync(bin, 0o755);
  return dir;
}
