// Claude Code transcript lines as it writes them (JSONL under ~/.claude/projects/…): a user
// prompt, and an assistant message split into one line per content block, each repeating the
// message's usage. For the usage reader's tests.
import { randomUUID } from "node:crypto";

export type Turn = {
  model: string;
  id: string;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
  };
  blocks?: number;
};

const base = (sessionId: string) => ({
  parentUuid: randomUUID(),
  isSidechain: false,
  userType: "external",
  cwd: "/home/dev/shop-api",
  sessionId,
  version: "2.0.42",
  gitBranch: "main",
  uuid: randomUUID(),
  timestamp: new Date().toISOString(),
});

export function userLine(sessionId: string, text: string): string {
  return JSON.stringify({ ...base(sessionId), type: "user", message: { role: "user", content: text } });
}

/** One line per content block (thinking, text, tool_use…), the usage repeated on each, as Claude Code does. */
export function assistantLines(sessionId: string, t: Turn): string[] {
  const requestId = `req_${t.id.slice(4)}`;
  const kinds = ["thinking", "text", "tool_use"].slice(0, t.blocks ?? 2);
  return kinds.map((kind) =>
    JSON.stringify({
      ...base(sessionId),
      type: "assistant",
      requestId,
      message: {
        id: t.id,
        type: "message",
        role: "assistant",
        model: t.model,
        content: [
          kind === "text"
            ? { type: "text", text: "Pagination is in." }
            : kind === "thinking"
              ? { type: "thinking", thinking: "…", signature: "x" }
              : { type: "tool_use", id: `toolu_${t.id}`, name: "Bash", input: { command: "npm test" } },
        ],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          ...t.usage,
          cache_creation: {
            ephemeral_5m_input_tokens: t.usage.cache_creation_input_tokens,
            ephemeral_1h_input_tokens: 0,
          },
          service_tier: "standard",
        },
      },
    }),
  );
}
