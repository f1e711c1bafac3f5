// POST /api/v1/hooks/gemini-cli: Gemini CLI's hook input in, its hook output out (the query and
// bounds are the Claude Code door's: server/wire/hooks.ts).
export const GEMINI_HOOK_PATH = "/api/v1/hooks/gemini-cli";

/** The Gemini CLI events whose answer decides whether a tool runs. */
export const GEMINI_GATED_EVENTS: ReadonlySet<string> = new Set(["BeforeTool"]);
