// `podwatch`: the agent's command line. Configured by PODWATCH_URL,
// PODWATCH_TOKEN and PODWATCH_POD (flags override); every command takes
// --json and --help; exit codes are listed in exit-codes.ts.
import { parseArgs } from "node:util";
import { PodwatchClient } from "../sdk/client";
import { Interrupted, PodwatchError, UsageError } from "../sdk/errors";
import { PodAgent } from "../sdk/pod-agent";
import type { OptionSpec, Output, Parsed, Result } from "./command";
import { COMMANDS } from "./commands";
import { EXIT, exitCodeOf } from "./exit-codes";
import { globalHelp, commandHelp, groupHelp, GLOBAL_OPTIONS } from "./help";

export type Io = {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
  signal: AbortSignal;
};

/** Runs one command line; returns the exit code (never calls process.exit, so tests can call it too). */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const words = commandWords(argv);
  const wantsHelp = argv.includes("--help") || argv.includes("-h");
  const jsonOut = argv.includes("--json");
  const cmd =
    COMMANDS.find((c) => c.name === words.slice(0, 2).join(" ")) ?? COMMANDS.find((c) => c.name === words[0]);
  if (!cmd) {
    if (argv.includes("--version")) return (io.stdout("podwatch 0.1.0\n"), EXIT.ok);
    const group = COMMANDS.filter((c) => c.name.startsWith(`${words[0]} `));
    if (group.length && (wantsHelp || words.length === 1))
      return (io.stdout(groupHelp(words[0]!, group)), wantsHelp ? EXIT.ok : EXIT.usage);
    if (!words.length) return (io.stdout(globalHelp(COMMANDS)), wantsHelp ? EXIT.ok : EXIT.usage);
    const what = group.length ? `${words[0]} ${words[1] ?? ""}`.trim() : words[0];
    return report(
      new UsageError(`unknown command "${what}". Run podwatch --help for the list.`),
      io,
      jsonOut,
    );
  }
  if (wantsHelp) return (io.stdout(commandHelp(cmd)), EXIT.ok);

  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: toParseArgs({ ...GLOBAL_OPTIONS, ...cmd.options }),
      allowPositionals: true,
      strict: true,
    });
    const args = positionals.slice(cmd.name.split(" ").length);
    const [min, max] = cmd.arity ?? [0, 0];
    if (args.length < min || args.length > max)
      throw new UsageError(`usage: podwatch ${cmd.name}${cmd.args ? ` ${cmd.args}` : ""} (run with --help)`);
    const overrides = {
      url: values.url as string | undefined,
      token: values.token as string | undefined,
      podId: values.pod as string | undefined,
      actor: values.actor as string | undefined,
    };
    const agent = () => new PodAgent(PodwatchClient.fromEnv(io.env, overrides));
    const out = makeOutput(io, jsonOut || values.quiet === true, jsonOut);
    const result: Result = await cmd.run({
      values: values as Parsed["values"],
      positionals: args,
      agent: once(agent),
      out,
      signal: io.signal,
    });
    if (jsonOut && result.json !== undefined) io.stdout(`${JSON.stringify(result.json, null, 2)}\n`);
    else if (!jsonOut && result.text) io.stdout(`${result.text}\n`);
    return result.exitCode ?? EXIT.ok;
  } catch (e) {
    return report(e, io, jsonOut);
  }
}

function report(e: unknown, io: Io, json: boolean): number {
  const code = io.signal.aborted
    ? EXIT.interrupted
    : exitCodeOf(
        e instanceof Error &&
          "code" in e &&
          String((e as NodeJS.ErrnoException).code).startsWith("ERR_PARSE_ARGS")
          ? new UsageError(e.message)
          : e,
      );
  if (code === EXIT.interrupted) e = new Interrupted();
  const err = e as Error;
  if (json) {
    const body =
      e instanceof PodwatchError
        ? { status: e.status, code: e.code, message: e.message, issues: e.issues }
        : {
            code: code === EXIT.usage ? "usage" : code === EXIT.interrupted ? "interrupted" : "internal",
            message: err.message,
          };
    io.stdout(`${JSON.stringify({ error: body }, null, 2)}\n`);
  } else {
    io.stderr(`podwatch: ${err.message}\n`);
    if (e instanceof PodwatchError)
      for (const i of e.issues) io.stderr(`  ${i.path || "(root)"}: ${i.message}\n`);
    if (code === EXIT.internal && err.stack) io.stderr(`${err.stack}\n`);
  }
  return code;
}

function makeOutput(io: Io, quiet: boolean, json: boolean): Output {
  let last = 0;
  return {
    json,
    progress: (line, done = false) => {
      if (quiet) return;
      if (io.isTTY) return io.stderr(`\r\x1b[2K${line}${done ? "\n" : ""}`);
      const now = Date.now();
      if (done || now - last > 1000) {
        last = now; // logs get a line a second, not a bar
        io.stderr(`${line}\n`);
      }
    },
    line: (text, value) => io.stdout(json ? `${JSON.stringify(value)}\n` : `${text}\n`),
  };
}

function toParseArgs(specs: Record<string, OptionSpec>) {
  return Object.fromEntries(
    Object.entries(specs).map(([k, s]) => [
      k,
      { type: s.type, ...(s.multiple ? { multiple: true } : {}), ...(s.short ? { short: s.short } : {}) },
    ]),
  );
}

/** The positionals, found by a lenient parse that knows every option (so `--pod X plan read` finds "plan read"). */
function commandWords(argv: string[]): string[] {
  const all = Object.assign({}, GLOBAL_OPTIONS, ...COMMANDS.map((c) => c.options ?? {}));
  try {
    return parseArgs({ args: argv, options: toParseArgs(all), allowPositionals: true, strict: false })
      .positionals;
  } catch {
    return argv.filter((a) => !a.startsWith("-"));
  }
}

function once<T>(f: () => T): () => T {
  let v: T | undefined;
  return () => (v ??= f());
}
