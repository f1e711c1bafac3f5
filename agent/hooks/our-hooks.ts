// What `podwatch hooks install` puts in a settings file, per form. The HTTP hooks cannot read the
// transcript, so one command hook beside them reports token usage at the stops.
import { withExtra } from "./settings-merge";
import { commandHooks, httpHooks, OBSERVATION_TIMEOUT_SECONDS, type ClaudeHooks } from "./settings-snippet";

export type HookForm = "http" | "command";

export function ourHooks(form: HookForm, url: string, bin = "podwatch"): ClaudeHooks {
  if (form === "command") return commandHooks(`${bin} hook`);
  const usage = {
    hooks: [
      { type: "command" as const, command: `${bin} hook --usage-only`, timeout: OBSERVATION_TIMEOUT_SECONDS },
    ],
  };
  return withExtra(httpHooks(url), { Stop: [usage], SubagentStop: [usage], SessionEnd: [usage] });
}
