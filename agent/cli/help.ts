// --help texts, built from the command table so they never drift from it.
import type { Command, OptionSpec } from "./command";
import { EXIT_HELP } from "./exit-codes";

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  url: { type: "string", description: "server URL (default $PODWATCH_URL)", value: "URL" },
  token: {
    type: "string",
    description: "agent token (default $PODWATCH_TOKEN; flags show in ps)",
    value: "TOKEN",
  },
  pod: { type: "string", description: "pod id (default $PODWATCH_POD, else the token's pod)", value: "ID" },
  actor: {
    type: "string",
    description: "member to speak as, for admin tokens (default $PODWATCH_ACTOR)",
    value: "MEMBER",
  },
  json: { type: "boolean", description: "print the result as JSON (errors too, on stdout)" },
  quiet: { type: "boolean", description: "no progress output" },
  help: { type: "boolean", short: "h", description: "show help" },
};

const optionLines = (specs: Record<string, OptionSpec>) =>
  Object.entries(specs).map(([k, s]) => {
    const flag = `${s.short ? `-${s.short}, ` : "    "}--${k}${s.value ? ` ${s.value}` : ""}`;
    return `  ${flag.padEnd(34)} ${s.description}`;
  });

export function globalHelp(commands: Command[]): string {
  const rows = commands.map((c) => `  ${`${c.name}${c.args ? ` ${c.args}` : ""}`.padEnd(44)} ${c.summary}`);
  return [
    "podwatch — report into a pod's tape, and hear back from its humans",
    "",
    "Usage: podwatch <command> [options]      (podwatch <command> --help for details)",
    "",
    "Commands:",
    ...rows,
    "",
    "Configuration: PODWATCH_URL, PODWATCH_TOKEN (an agent token), PODWATCH_POD (optional).",
    "",
    "Options for every command:",
    ...optionLines(GLOBAL_OPTIONS),
    "",
    EXIT_HELP,
    "",
  ].join("\n");
}

export function groupHelp(group: string, commands: Command[]): string {
  return [
    `Usage: podwatch ${group} <${commands.map((c) => c.name.split(" ")[1]).join("|")}> [options]`,
    "",
    ...commands.map((c) => `  ${c.name.padEnd(20)} ${c.summary}`),
    "",
  ].join("\n");
}

export function commandHelp(c: Command): string {
  return [
    `Usage: podwatch ${c.name}${c.args ? ` ${c.args}` : ""}${c.options ? " [options]" : ""}`,
    "",
    c.summary,
    ...(c.options ? ["", "Options:", ...optionLines(c.options)] : []),
    ...(c.examples ? ["", "Examples:", ...c.examples.map((e) => `  ${e}`)] : []),
    "",
    "Also: --url, --token, --pod, --actor, --json, --quiet (podwatch --help)",
    "",
  ].join("\n");
}
