// Which of a session's steers a hook carries, and how the agent hears them. Pure. A message (or a
// word to an idle session) rides the next hook that can add to what the model reads: as context
// at UserPromptSubmit and PostToolUse, or at Stop as a block whose reason is the message, so the
// agent carries on with it. An interrupt ends the turn at the next hook of any kind, and at a tool
// call denies the call with the person's reason first (the call never runs). Codex ends no turn
// for any hook's answer once it is under way (PostToolUse `continue: false` only replaces the
// tool's output; a denied call is one the model may follow with another): an interrupt for Codex
// denies each of its tool calls (deliver-steers.ts, heldInterrupt) and is delivered at the turn's
// Stop, or at the next prompt. A retried hook carries again exactly what it carried the first time.
import type { AgentSession, Steer } from "../domain/state/pod-state";
import type { AgentKind } from "../domain/vocabulary";
import type { ClaudeCodeHookOutput } from "../wire/hooks";

/** The hook events a message rides. */
const MESSAGE_EVENTS = new Set(["UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop"]);
/** The hook events an interrupt rides: every one the agent waits on. */
const INTERRUPT_EVENTS = new Set([...MESSAGE_EVENTS, "PreToolUse", "PermissionRequest"]);
/** Codex's: the turn's end, or a prompt it keeps from starting; until then each tool call is denied. */
const CODEX_INTERRUPT_EVENTS = new Set(["UserPromptSubmit", "Stop"]);

/** What this hook call carries: what it carried before (a retry), else the first pending interrupt, else every pending message. */
export function steersFor(
  session: AgentSession | undefined,
  event: string,
  hookId: string,
  agent: AgentKind,
): Steer[] {
  const steers = session?.steers ?? [];
  const retried = steers.filter((x) => x.delivered?.hookId === hookId);
  if (retried.length) return retried;
  const pending = steers.filter((x) => !x.delivered);
  const interrupt = pending.find((x) => x.act === "interrupt");
  if (interrupt)
    return (agent === "codex" ? CODEX_INTERRUPT_EVENTS : INTERRUPT_EVENTS).has(event) ? [interrupt] : [];
  return MESSAGE_EVENTS.has(event) ? pending : [];
}

/** The words the model reads: the person's text, said to be theirs. */
export function steerWords(steers: Steer[], nameOf: (memberId: string) => string): string {
  return steers
    .map((x) =>
      x.act === "interrupt"
        ? `${nameOf(x.by)} interrupted this turn from podwatch: ${x.text}`
        : `${nameOf(x.by)} says, from podwatch: ${x.text}`,
    )
    .join("\n\n");
}

/**
 * The hook's answer in Claude Code's shape (Codex reads the same; Gemini CLI's door rewrites it).
 * Codex's PreToolUse and PermissionRequest get the deny alone: Codex 0.169 refuses `continue: false`
 * (and `interrupt`) there, and a field it refuses fails the hook open (the call runs).
 */
export function steerOutput(
  agent: AgentKind,
  event: string,
  steers: Steer[],
  words: string,
): ClaudeCodeHookOutput {
  if (!steers.length) return {};
  const stop = { continue: false as const, stopReason: words };
  if (steers[0]!.act === "interrupt") {
    if (event === "PreToolUse") {
      const deny = {
        hookSpecificOutput: {
          hookEventName: "PreToolUse" as const,
          permissionDecision: "deny" as const,
          permissionDecisionReason: words,
        },
      };
      return agent === "codex" ? deny : { ...stop, ...deny };
    }
    if (event === "PermissionRequest")
      return {
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: {
            behavior: "deny",
            message: words,
            ...(agent === "codex" ? {} : { interrupt: true as const }),
          },
        },
      };
    return stop;
  }
  if (event === "Stop") return { decision: "block", reason: words };
  if (event === "UserPromptSubmit" || event === "PostToolUse" || event === "PostToolUseFailure")
    return { hookSpecificOutput: { hookEventName: event, additionalContext: words } };
  return {};
}
