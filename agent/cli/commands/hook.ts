// `podwatch hook`: Claude Code's "command" hook (agent/hooks/run-hook.ts). The bin runs it from
// its own small bundle without this table; this entry gives it --help and the command list.
import type { Command } from "../command";

export const hook: Command = {
  name: "hook",
  summary:
    "An agent's command hook (Claude Code; Codex with --agent codex): hook JSON on stdin, podwatch's answer on stdout",
  options: {
    timeout: {
      type: "string",
      description:
        "the hook's timeout in Claude Code's settings, in seconds (default 600 for PreToolUse and PermissionRequest, else 10): the answer comes before it",
      value: "SECONDS",
    },
    agent: {
      type: "string",
      description:
        "whose hook input this is: claude-code (the default), codex, or gemini (Gemini CLI, answered in its shape)",
      value: "AGENT",
    },
    "usage-only": {
      type: "boolean",
      description:
        "only report token usage from the transcript (beside HTTP hooks, at Stop, SubagentStop and SessionEnd)",
    },
  },
  examples: [
    'settings: { "type": "command", "command": "podwatch hook", "timeout": 600 }',
    "Exit 0 with Claude Code's hook output on stdout; 1 (non-blocking) when the input or the configuration is wrong; never 2.",
    "Podwatch unreachable: the payload is spooled in $PODWATCH_SPOOL_DIR (default ~/.podwatch/spool) and replayed in order next time.",
  ],
  run: async ({ values }) => {
    const { runHook } = await import("../../hooks/run-hook");
    const given = (k: string) => (typeof values[k] === "string" ? [`--${k}`, values[k] as string] : []);
    const argv = [
      ...given("timeout"),
      ...given("url"),
      ...given("token"),
      ...given("agent"),
      ...(values["usage-only"] ? ["--usage-only"] : []),
    ];
    let out = "";
    const exitCode = await runHook(argv, {
      stdin: process.stdin,
      stdout: (s) => void (out += s),
      stderr: (s) => void process.stderr.write(s),
      env: process.env,
    });
    return { text: out.replace(/\n$/, ""), json: undefined, exitCode };
  },
};
