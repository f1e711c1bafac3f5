// Token usage from a Codex session log (the rollout JSONL its hooks name as transcript_path), at
// Stop and SessionEnd, as usage.reported events like Claude Code's (report-usage.ts does the
// reading, the cursor and the spool). Codex writes the model of each turn in a turn_context line
// and, after each model call, a token_count line with the session's running total and the last
// call's usage; a repeated total is the same call again, counted once. OpenAI counts cached input
// inside input_tokens: here it is split out, as Claude Code's cache reads are.
import type { TokenCounts } from "./model-prices";
import { addTokens, tokens as count } from "./transcript-usage";

type Price = { input: number; cachedInput: number; output: number };
/** US dollars per million tokens, OpenAI's published list prices; a model not listed gets no cost, never a guess. */
const OPENAI_PRICES: readonly [model: string, price: Price][] = [
  ["gpt-5.1-codex-mini", { input: 0.25, cachedInput: 0.025, output: 2 }],
  ["gpt-5.1-codex", { input: 1.25, cachedInput: 0.125, output: 10 }],
  ["gpt-5.1", { input: 1.25, cachedInput: 0.125, output: 10 }],
  ["gpt-5-codex", { input: 1.25, cachedInput: 0.125, output: 10 }],
  ["gpt-5-mini", { input: 0.25, cachedInput: 0.025, output: 2 }],
  ["gpt-5-nano", { input: 0.05, cachedInput: 0.005, output: 0.4 }],
  ["gpt-5", { input: 1.25, cachedInput: 0.125, output: 10 }],
];

/** The cost in dollars of a Codex model's tokens, rounded to a millionth; undefined for a model without a price. */
export function codexCostOf(model: string, t: TokenCounts): number | undefined {
  // The exact id, or the id with a release date ("gpt-5-2025-08-07"): "gpt-5.2" is not gpt-5.
  const p = OPENAI_PRICES.find(
    ([id]) => model === id || /^-\d{4}-\d{2}-\d{2}$/.test(model.slice(id.length)),
  )?.[1];
  if (!p) return undefined;
  const usd = (t.inputTokens * p.input + t.cacheReadTokens * p.cachedInput + t.outputTokens * p.output) / 1e6;
  return Math.round(usd * 1e6) / 1e6;
}

const MODEL = "model\u0000";
const TOTAL = "total\u0000";

/** One line of a Codex session log: a turn's model, or a model call's tokens. `seen` keeps the model and the totals counted. */
export function countCodexLine(text: string, seen: Set<string>, perModel: Map<string, TokenCounts>) {
  const turn = text.includes('"turn_context"');
  if (!turn && !text.includes('"token_count"')) return; // prompts, tool output: skipped unparsed
  type Usage = { total_tokens?: unknown } & Record<string, unknown>;
  type Payload = {
    type?: unknown;
    model?: unknown;
    info?: { total_token_usage?: Usage; last_token_usage?: Usage } | null;
  };
  let line: { type?: unknown; payload?: Payload };
  try {
    line = JSON.parse(text) as typeof line;
  } catch {
    return;
  }
  const p = line?.payload;
  if (!p || typeof p !== "object") return;
  if (line.type === "turn_context" && typeof p.model === "string" && p.model) {
    for (const k of seen) if (k.startsWith(MODEL)) seen.delete(k);
    seen.add(MODEL + p.model.slice(0, 200)); // re-added last: the cursor keeps the newest keys
    return;
  }
  if (line.type !== "event_msg" || p.type !== "token_count") return;
  const total = count(p.info?.total_token_usage?.total_tokens);
  const last = p.info?.last_token_usage;
  if (!total || !last || typeof last !== "object" || seen.has(TOTAL + total)) return;
  seen.add(TOTAL + total);
  const cached = count(last.cached_input_tokens);
  const t: TokenCounts = {
    inputTokens: Math.max(0, count(last.input_tokens) - cached),
    outputTokens: count(last.output_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: count(last.cache_write_input_tokens),
  };
  if (!t.inputTokens && !t.outputTokens && !t.cacheReadTokens && !t.cacheWriteTokens) return;
  const model =
    [...seen]
      .reverse()
      .find((k) => k.startsWith(MODEL))
      ?.slice(MODEL.length) ?? "unknown";
  addTokens(perModel, model, t);
}
