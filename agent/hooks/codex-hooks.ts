// The hooks `podwatch hooks install --agent codex` writes into Codex's hooks.json, as one pure
// value (the UI's snippet shows the same). Codex's file has Claude Code's shape (events → matcher
// groups → command hooks, timeouts in seconds), so settings-merge.ts merges and removes ours in
// it; Codex has command hooks only. Codex runs the tool when a hook exits 1, prints no JSON or
// times out, so a gated call's timeout is longer than podwatch holds it, and its command turns
// any failure of `podwatch hook` itself (not installed: 127; a crash: 1) into exit 2, which
// blocks (`podwatch hook` answers every gated call with exit 0 and a decision when it runs).
// Codex caps SessionEnd's hooks at 3 seconds.
import {
  BLOCK_ON_FAILURE,
  GATED_HOOK_EVENTS,
  GATED_TIMEOUT_SECONDS,
  OBSERVATION_TIMEOUT_SECONDS,
} from "./settings-snippet";
import type { ClaudeHookEvent, ClaudeHooks } from "./settings-snippet";

export const CODEX_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionEnd",
] as const satisfies readonly ClaudeHookEvent[];
const SESSION_END_TIMEOUT_SECONDS = 3;

/** Every event runs `<bin> hook --agent codex`; with no matcher, a tool event matches every tool. */
export function codexHooks(bin = "podwatch"): ClaudeHooks {
  return Object.fromEntries(
    CODEX_HOOK_EVENTS.map((event) => {
      const gated = GATED_HOOK_EVENTS.includes(event);
      const timeout = gated
        ? GATED_TIMEOUT_SECONDS
        : event === "SessionEnd"
          ? SESSION_END_TIMEOUT_SECONDS
          : OBSERVATION_TIMEOUT_SECONDS;
      const command = `${bin} hook --agent codex${event === "SessionEnd" ? ` --timeout ${timeout}` : ""}${gated ? ` ${BLOCK_ON_FAILURE}` : ""}`;
      return [event, [{ hooks: [{ type: "command" as const, command, timeout }] }]];
    }),
  );
}

/** Where Codex reads hooks: user, $CODEX_HOME/hooks.json (default ~/.codex); project, .codex/hooks.json in this folder (loaded once the project is trusted). */
export function codexHooksPath(
  scope: "user" | "project",
  o: { cwd: string; home: string; codexHome?: string },
) {
  if (scope === "project") return `${o.cwd.replace(/\/+$/, "")}/.codex/hooks.json`;
  return `${(o.codexHome || `${o.home}/.codex`).replace(/\/+$/, "")}/hooks.json`;
}

/** What a person must still do: Codex skips a new or changed hook, silently, until it is trusted. */
export const CODEX_TRUST_NOTE =
  "Codex runs these hooks only once you trust them: start `codex` and review them with /hooks " +
  "(until then it skips them without a word)";
