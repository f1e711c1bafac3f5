#!/usr/bin/env node
// The `podwatch` command (package.json "bin"). Agents run it once per action, so it starts from
// a one-file bundle of the TypeScript CLI (esbuild, ~50 ms) instead of compiling on the fly.
// The bundle's stamp lists the sources esbuild read; it is rebuilt when any of them (or this
// file) changed or went missing. Where it cannot be written or loaded, the CLI runs through
// tsx instead (PODWATCH_DEBUG=1 says why).
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const self = fileURLToPath(import.meta.url);
const root = join(dirname(self), "..", "..");
const cache = join(root, "node_modules", ".cache", "podwatch");
// `podwatch hook` runs once per tool call of a Claude Code session: it starts from its own small
// bundle (no command table, no event schemas), so node's start-up is most of what it costs.
const args = process.argv.slice(2);
const hookFastPath = args[0] === "hook" && !args.includes("--help") && !args.includes("-h");
const entry = hookFastPath
  ? { source: "agent/hooks/run-hook.ts", name: "hook" }
  : { source: "agent/cli/main.ts", name: "cli" };
const bundle = join(cache, `${entry.name}.mjs`);
const stampFile = join(cache, `${entry.name}.stamp.json`);

/** What the bundle was built from, as of now: null when a source is gone. */
function fingerprint(inputs) {
  let newest = statSync(self).mtimeMs;
  for (const input of inputs) {
    const st = statSync(join(root, input), { throwIfNoEntry: false });
    if (!st) return null;
    newest = Math.max(newest, st.mtimeMs);
  }
  return `${inputs.length}:${newest}`;
}

function isFresh() {
  try {
    const stamp = JSON.parse(readFileSync(stampFile, "utf8"));
    return fingerprint(stamp.inputs) === stamp.fingerprint;
  } catch {
    return false;
  }
}

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
    if (!isFresh()) {
      const { buildSync } = await import("esbuild");
      mkdirSync(cache, { recursive: true });
      let inputs = [];
      writeAtomically(bundle, (tmp) => {
        const built = buildSync({
          entryPoints: [entry.source],
          absWorkingDir: root,
          bundle: true,
          platform: "node",
          format: "esm",
          packages: "external",
          outfile: tmp,
          metafile: true,
          logLevel: "silent",
        });
        inputs = Object.keys(built.metafile.inputs);
      });
      writeAtomically(stampFile, (tmp) =>
        writeFileSync(tmp, JSON.stringify({ inputs, fingerprint: fingerprint(inputs) })),
      );
    }
    return await import(pathToFileURL(bundle).href);
  } catch (e) {
    if (process.env.PODWATCH_DEBUG)
      process.stderr.write(`podwatch: bundle unusable (${e.message}); running through tsx\n`);
    rmSync(stampFile, { force: true }); // rebuilt next time
    const { tsImport } = await import("tsx/esm/api");
    return tsImport(`../../${entry.source}`, import.meta.url);
  }
}

if (hookFastPath) {
  const { runHook } = await loadCli();
  const code = await runHook(args.slice(1), {
    stdin: process.stdin,
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
  });
  // Leave as soon as the answer is out: a request given up at the deadline must not hold Claude Code.
  process.stdout.write("", () => process.exit(code));
  await new Promise(() => {});
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
