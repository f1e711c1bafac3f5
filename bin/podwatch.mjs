#!/usr/bin/env node
// The `podwatch` command (package.json "bin"): runs the TypeScript CLI through tsx.
import { tsImport } from "tsx/esm/api";

const { runCli } = await tsImport("../server/cli/main.ts", import.meta.url);
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
