// Gemini CLI's hook input, put in Claude Code's shape so one handler records and gates both
// (handle-claude-code-hook.ts, told the agent is gemini-cli). Pure. The names map one to one
// where the meaning is the same; Gemini's tool names stay its own (run_shell_command, …): the
// pod's policy names tools in each agent's vocabulary. An event podwatch does not map keeps a
// prefixed name no Claude Code event has, so it is answered `{}` and nothing is stored.
// Gemini's BeforeTool carries no tool-call id: pre and post join on the call's tool and input
// (hook-event-id.ts, fallbackToolUseId), and the command hook's own id keeps two calls apart.

const EVENT_NAMES: Record<string, string> = {
  BeforeTool: "PreToolUse",
  AfterTool: "PostToolUse",
  BeforeAgent: "UserPromptSubmit",
  AfterAgent: "Stop",
  SessionStart: "SessionStart",
  SessionEnd: "SessionEnd",
  Notification: "Notification",
};

/** Gemini CLI's events podwatch records (the hooks `podwatch hooks install --agent gemini` writes). */
export const GEMINI_HOOK_EVENTS = Object.keys(EVENT_NAMES);

const UNMAPPED_PREFIX = "GeminiCli.";

type Json = Record<string, unknown>;

/**
 * Claude Code's hook input for a Gemini CLI one. A body that is not an object, or names no
 * event, is returned as it is, so the Claude Code parser refuses it with its own 400.
 */
export function claudeShapeOfGemini(body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const h = body as Json;
  const event = h.hook_event_name;
  if (typeof event !== "string") return body;
  const mapped = Object.hasOwn(EVENT_NAMES, event) ? EVENT_NAMES[event]! : null;
  if (!mapped) return { ...h, hook_event_name: `${UNMAPPED_PREFIX}${event}`.slice(0, 200) };
  const out: Json = { ...h, hook_event_name: mapped };
  switch (event) {
    case "AfterTool":
      return afterTool(out, h.tool_response);
    case "AfterAgent":
      // AfterAgent's prompt_response is the turn's last answer: a Stop's last_assistant_message (a report, a note).
      return {
        ...out,
        last_assistant_message: typeof h.prompt_response === "string" ? h.prompt_response : undefined,
        prompt: undefined,
        prompt_response: undefined,
      };
    case "Notification":
      // Gemini's details are the tool call a notification is about: not a text to show.
      return { ...out, details: undefined };
    default:
      return out;
  }
}

/** AfterTool's response is {llmContent, returnDisplay, error}: an error makes it a failed call. */
function afterTool(out: Json, response: unknown): Json {
  const r = response && typeof response === "object" && !Array.isArray(response) ? (response as Json) : {};
  const error = r.error;
  if (error !== undefined && error !== null) {
    const message =
      typeof error === "string"
        ? error
        : typeof (error as Json).message === "string"
          ? ((error as Json).message as string)
          : JSON.stringify(error);
    return { ...out, hook_event_name: "PostToolUseFailure", error: message, tool_response: undefined };
  }
  const shown = r.returnDisplay ?? r.llmContent;
  return { ...out, tool_response: typeof shown === "string" ? shown : (shown ?? response) };
}
