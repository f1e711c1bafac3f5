// Where a test that drives a real agent program (Claude Code, Codex, Gemini CLI) finds the
// `podwatch` command its hooks run: the agent kit the server serves, installed as a user would
// (`npm install -g <server>/agent/podwatch.tgz`, here into a private prefix), so what is tested is
// what an agent's machine gets. One install per kit (its ETag) in a test process.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const installs = new Map<string, Promise<string>>();

/** npm as a clean machine runs it: its own prefix, cache and config, nothing reported anywhere. */
export async function npmInstallGlobal(spec: string, prefix: string): Promise<void> {
  await promisify(execFile)(
    "npm",
    ["install", "--global", "--prefix", prefix, "--no-audit", "--no-fund", "--no-update-notifier", spec],
    {
      env: {
        NODE_ENV: "production",
        PATH: process.env.PATH,
        HOME: prefix,
        npm_config_cache: join(prefix, ".npm-cache"),
        npm_config_userconfig: join(prefix, ".npmrc"),
      },
      timeout: 120_000,
    },
  );
}

/** A folder holding an executable `podwatch` (the served kit's); put it first on PATH. */
export async function installedPodwatch(serverUrl: string): Promise<string> {
  const url = `${serverUrl.replace(/\/+$/, "")}/agent/podwatch.tgz`;
  const head = await fetch(url, { method: "HEAD" });
  if (!head.ok) throw new Error(`HEAD ${url}: ${head.status}`);
  const etag = head.headers.get("etag") ?? url;
  let install = installs.get(etag);
  if (!install) {
    const prefix = mkdtempSync(join(tmpdir(), "podwatch-kit-"));
    install = npmInstallGlobal(url, prefix).then(() => join(prefix, "bin"));
    installs.set(etag, install);
    install.catch(() => installs.delete(etag));
  }
  return install;
}
