// The Claude Code hook entries that make a session report to podwatch, as one pure value: the
// browser's "agent added" snippet and `podwatch hooks install` both build them here, so the
// JSON a person pastes and the JSON the CLI merges can never drift apart. No I/O, no node: APIs.

/** The hook events podwatch listens to (Claude Code ignores a name it does not know, so newer ones are harmless). */
export const CLAUDE_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "Notification",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionEnd",
] as const;
export type ClaudeHookEvent = (typeof CLAUDE_HOOK_EVENTS)[number];

/** The events whose matcher is a tool name ("*": every tool). */
const TOOL_EVENTS: readonly ClaudeHookEvent[] = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
];
/** The events a tool policy may hold for a person's answer: their hook waits that long. */
export const GATED_HOOK_EVENTS: readonly ClaudeHookEvent[] = ["PreToolUse", "PermissionRequest"];

export const HOOKS_ROUTE = "/api/v1/hooks/claude-code";
export const TOKEN_ENV = "PODWATCH_TOKEN";
/** Seconds Claude Code gives a gated hook; the server answers a little before (its default wait is 540). */
export const GATED_TIMEOUT_SECONDS = 600;
/**
 * What a gated command hook ends in, for agents that run the tool when a hook exits 1 or 127 (Codex,
 * Gemini CLI): exit 2 blocks, and Codex blocks on it only with a reason on stderr.
 */
export const BLOCK_ON_FAILURE = `|| { echo "podwatch hook failed, so this tool call is blocked" >&2; exit 2; }`;
/** Seconds an observation may take before Claude Code moves on without it. */
export const OBSERVATION_TIMEOUT_SECONDS = 10;

export type ClaudeHookCommand =
  | { type: "http"; url: string; headers: Record<string, string>; allowedEnvVars: string[]; timeout: number }
  | { type: "command"; command: string; timeout: number };
export type ClaudeHookMatcher = { matcher?: string; hooks: ClaudeHookCommand[] };
export type ClaudeHooks = Partial<Record<ClaudeHookEvent, ClaudeHookMatcher[]>>;

const timeoutOf = (event: ClaudeHookEvent) =>
  GATED_HOOK_EVENTS.includes(event) ? GATED_TIMEOUT_SECONDS : OBSERVATION_TIMEOUT_SECONDS;
/**
 * An http Stop hook may be held for a person's Resume (the policy's idleHold, capped below this):
 * it waits as long as a gated call. A command hook's Stop is not held (`podwatch hook` gives an
 * observation seconds), so it keeps the observation's timeout.
 */
const httpTimeoutOf = (event: ClaudeHookEvent) =>
  event === "Stop" ? GATED_TIMEOUT_SECONDS : timeoutOf(event);

function eachEvent(hook: (event: ClaudeHookEvent) => ClaudeHookCommand): ClaudeHooks {
  return Object.fromEntries(
    CLAUDE_HOOK_EVENTS.map((event) => [
      event,
      [{ ...(TOOL_EVENTS.includes(event) ? { matcher: "*" } : {}), hooks: [hook(event)] }],
    ]),
  );
}

/** `"type": "http"` hooks: Claude Code posts each hook's input to podwatch, the token read from $PODWATCH_TOKEN. */
export function httpHooks(publicUrl: string): ClaudeHooks {
  const url = `${publicUrl.replace(/\/+$/, "")}${HOOKS_ROUTE}`;
  return eachEvent((event) => ({
    type: "http",
    url,
    headers: { Authorization: `Bearer $${TOKEN_ENV}` },
    allowedEnvVars: [TOKEN_ENV],
    timeout: httpTimeoutOf(event),
  }));
}

/** `"type": "command"` hooks: `podwatch hook` reads the input on stdin (and spools it when podwatch is down). */
export function commandHooks(command = "podwatch hook"): ClaudeHooks {
  return eachEvent((event) => ({ type: "command", command, timeout: timeoutOf(event) }));
}

/** A settings file's content holding only these hooks (what `.claude/settings.local.json` needs). */
export const settingsWith = (hooks: ClaudeHooks) => ({ hooks });

/** Whether a hook entry is one of ours (what `hooks uninstall` removes, and what a re-install replaces). */
export function isPodwatchHook(hook: { type?: unknown; url?: unknown; command?: unknown }): boolean {
  if (hook.type === "http" && typeof hook.url === "string")
    return hook.url.split("?")[0]!.endsWith(HOOKS_ROUTE);
  if (hook.type === "command" && typeof hook.command === "string")
    return /(^|[\s/"'])podwatch(\.mjs)?["']?\s+hook(\s|$)/.test(hook.command);
  return false;
}
