// What `podwatch hooks install` puts in a settings file, per form. Beside the HTTP hooks, command
// hooks do what Claude Code's HTTP hooks cannot: it runs no HTTP hook at SessionStart (its debug
// log says they are not supported there), so the session's start goes through `podwatch hook`;
// and an HTTP hook cannot read the transcript, so one command hook reports token usage at the stops.
import { withExtra } from "./settings-merge";
import { commandHooks, httpHooks, OBSERVATION_TIMEOUT_SECONDS, type ClaudeHooks } from "./settings-snippet";

export type HookForm = "http" | "command";

export function ourHooks(form: HookForm, url: string, bin = "podwatch"): ClaudeHooks {
  if (form === "command") return commandHooks(`${bin} hook`);
  const command = (args: string) => ({
    hooks: [
      { type: "command" as const, command: `${bin} hook${args}`, timeout: OBSERVATION_TIMEOUT_SECONDS },
    ],
  });
  const { SessionStart: _unsupported, ...http } = httpHooks(url);
  const usage = command(" --usage-only");
  return withExtra(
    { SessionStart: [command("")], ...http },
    { Stop: [usage], SubagentStop: [usage], SessionEnd: [usage] },
  );
}
