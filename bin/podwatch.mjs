#!/usr/bin/env node
// The `podwatch` command (package.json "bin"): runs the TypeScript CLI through tsx.
import { tsImport } from "tsx/esm/api";

const { runCli } = await tsImport("../server/cli/main.ts", import.meta.url);
const abort = new AbortController();
process.once("SIGINT", () => abort.abort());
process.once("SIGTERM", () => abort.abort());
const code = await runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
  isTTY: Boolean(process.stderr.isTTY),
  signal: abort.signal,
});
process.exitCode = code;
