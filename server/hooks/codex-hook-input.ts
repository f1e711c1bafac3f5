// Codex's hook input, put in Claude Code's shape so one mapping (claude-code-events.ts) and one
// gate serve both. Codex's command hooks send nearly the same JSON: session_id, transcript_path,
// cwd, hook_event_name, tool_name ("Bash" for its shell), tool_input, tool_use_id, tool_response,
// prompt, last_assistant_message, plus fields of its own (turn_id, model) that pass through. What
// differs: an absent value is null (transcript_path of an ephemeral session), where Claude Code
// leaves the key out. Pure: no I/O.

/** Codex's hook body in Claude Code's shape; anything that is not an object is returned as it is (the parse refuses it). */
export function codexHookInput(body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body as Record<string, unknown>))
    if (value !== null) out[key] = value;
  return out;
}
