// Token usage in a Gemini CLI transcript (its chat recording, JSONL): a "gemini" line per model
// answer with the answer's id, its model and `tokens` ({input, output, cached, thoughts, …}),
// written again under the same id as the answer grows (its tool calls), so an answer counts once.
// Gemini's input count includes the cached tokens, and its thoughts are billed as output. Only
// numbers leave this file: never the transcript's text.
import { addTokens, tokens, type LineCounter } from "./transcript-usage";

type Line = { type?: unknown; id?: unknown; model?: unknown; tokens?: Record<string, unknown> };

export const addGeminiUsageLine: LineCounter = (text, seen, perModel) => {
  if (!text.includes('"tokens"')) return; // prompts, tool results and updates: skipped unparsed
  let line: Line;
  try {
    line = JSON.parse(text) as Line;
  } catch {
    return;
  }
  const t = line?.tokens;
  if (line.type !== "gemini" || typeof line.model !== "string" || !line.model || !t || typeof t !== "object")
    return;
  if (typeof line.id === "string") {
    if (seen.has(line.id)) return;
    seen.add(line.id);
  }
  const cached = tokens(t.cached);
  const counts = {
    inputTokens: Math.max(0, tokens(t.input) - cached),
    outputTokens: tokens(t.output) + tokens(t.thoughts),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
  if (!counts.inputTokens && !counts.outputTokens && !counts.cacheReadTokens) return;
  addTokens(perModel, line.model.slice(0, 200), counts);
};
