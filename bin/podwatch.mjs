#!/usr/bin/env node
// The `podwatch` command (package.json "bin"). Agents run it once per action, so it starts from
// a one-file bundle of the TypeScript CLI (esbuild, ~50 ms, rebuilt whenever a source under
// server/ is newer) instead of compiling on the fly; where the bundle cannot be written it
// falls back to tsx.
import { mkdirSync, readdirSync, renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const entry = join(root, "server", "cli", "main.ts");
const bundle = join(root, "node_modules", ".cache", "podwatch", "cli.mjs");

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) newest = Math.max(newest, e.name === "generated" ? 0 : newestSource(join(dir, e.name)));
    else if (e.name.endsWith(".ts")) newest = Math.max(newest, statSync(join(dir, e.name)).mtimeMs);
  }
  return newest;
}

async function loadCli() {
  try {
    const built = statSync(bundle, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (built < newestSource(join(root, "server"))) {
      const { buildSync } = await import("esbuild");
      mkdirSync(dirname(bundle), { recursive: true });
      const tmp = `${bundle}.${process.pid}.tmp`; // two agents building at once each rename a whole file
      buildSync({ entryPoints: [entry], bundle: true, platform: "node", format: "esm", packages: "external", outfile: tmp, logLevel: "silent" });
      renameSync(tmp, bundle);
    }
    return await import(pathToFileURL(bundle).href);
  } catch {
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
