#!/usr/bin/env node
// The `podwatch` command (package.json "bin"). Agents run it once per action, so it starts from
// a one-file bundle of the TypeScript CLI (esbuild, ~50 ms) instead of compiling on the fly.
// The bundle is rebuilt whenever its stamp — how many sources under server/ there are, the
// newest one's mtime, and this file's — differs from now; where it cannot be written or
// loaded, the CLI runs through tsx instead (PODWATCH_DEBUG=1 says why).
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), "..");
const cache = join(root, "node_modules", ".cache", "podwatch");
const bundle = join(cache, "cli.mjs");
const stampFile = join(cache, "cli.stamp");

function scan(dir, acc = { files: 0, newest: 0 }) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() && e.name !== "generated") scan(join(dir, e.name), acc);
    else if (e.isFile() && e.name.endsWith(".ts")) {
      acc.files++;
      acc.newest = Math.max(acc.newest, statSync(join(dir, e.name)).mtimeMs);
    }
  }
  return acc;
}

const readStamp = () => {
  try {
    return readFileSync(stampFile, "utf8");
  } catch {
    return "";
  }
};

/** Writes via a unique temporary name, so builders running at once never see half a file. */
function writeAtomically(path, write) {
  const tmp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  try {
    write(tmp);
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
}

async function loadCli() {
  try {
    const { files, newest } = scan(join(root, "server"));
    const stamp = `${files}:${newest}:${statSync(self).mtimeMs}`;
    if (readStamp() !== stamp) {
      const { buildSync } = await import("esbuild");
      mkdirSync(cache, { recursive: true });
      writeAtomically(bundle, (tmp) => buildSync({ entryPoints: [join(root, "server", "cli", "main.ts")], bundle: true, platform: "node", format: "esm", packages: "external", outfile: tmp, logLevel: "silent" }));
      writeAtomically(stampFile, (tmp) => writeFileSync(tmp, stamp));
    }
    return await import(pathToFileURL(bundle).href);
  } catch (e) {
    if (process.env.PODWATCH_DEBUG) process.stderr.write(`podwatch: bundle unusable (${e.message}); running through tsx\n`);
    rmSync(stampFile, { force: true }); // rebuilt next time
    const { tsImport } = await import("tsx/esm/api");
    return tsImport("../server/cli/main.ts", import.meta.url);
  }
}

const { runCli } = await loadCli();
// The first Ctrl-C asks the command to stop cleanly (tail ends, a wait gives up, an upload stops
// between files); a second one leaves at once.
const abort = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (abort.signal.aborted) process.exit(130);
    abort.abort();
  });
}
const code = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
  isTTY: Boolean(process.stderr.isTTY),
  signal: abort.signal,
});
process.exitCode = code;
