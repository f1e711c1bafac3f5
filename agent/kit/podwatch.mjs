#!/usr/bin/env node
// The `podwatch` command of the agent kit the server serves (server/agent-kit/): the same CLI as
// agent/bin/podwatch.mjs, from bundles built when the kit was packed, so it needs Node and nothing
// else. `podwatch hook` runs once per tool call: it starts from its own small bundle.
const args = process.argv.slice(2);
const hookFastPath = args[0] === "hook" && !args.includes("--help") && !args.includes("-h");
const load = (name) => import(new URL(`../dist/${name}.mjs`, import.meta.url).href);

if (hookFastPath) {
  const { runHook } = await load("hook");
  const code = await runHook(args.slice(1), {
    stdin: process.stdin,
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
  });
  // Leave as soon as the answer is out: a request given up at the deadline must not hold the agent.
  process.stdout.write("", () => process.exit(code));
  await new Promise(() => {});
}
const { runCli } = await load("cli");
// The first Ctrl-C asks the command to stop cleanly; a second one leaves at once.
const abort = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (abort.signal.aborted) process.exit(130);
    abort.abort();
  });
}
process.exitCode = await runCli(args, {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  env: process.env,
  isTTY: Boolean(process.stderr.isTTY),
  signal: abort.signal,
});
