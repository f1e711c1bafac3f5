// What a model's tokens cost, to put a costUsd on usage read from a Claude Code transcript.
// US dollars per million tokens, from Anthropic's published list prices (standard context, cache
// writes at the 5-minute rate). A model not listed gets no cost (the tokens are still reported),
// never a guess. A row matches the model id with or without its release date
// ("claude-sonnet-4-5-20250929" is claude-sonnet-4-5).
export type ModelPrice = { input: number; output: number; cacheWrite: number; cacheRead: number };
export type TokenCounts = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
};

export const MODEL_PRICES: readonly [prefix: string, price: ModelPrice][] = [
  ["claude-opus-4-5", { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
  ["claude-opus-4-1", { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  ["claude-opus-4", { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  ["claude-sonnet-4-5", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-sonnet-4", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-3-7-sonnet", { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ["claude-haiku-4-5", { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
  ["claude-3-5-haiku", { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
];

export function priceOf(model: string): ModelPrice | null {
  // The prefix, then nothing, a release date, or a variant tag ("[1m]", "@20250929"): "claude-opus-4-6" is not opus-4.
  return (
    MODEL_PRICES.find(
      ([prefix]) => model.startsWith(prefix) && /^(-\d{8})?([@[].*)?$/.test(model.slice(prefix.length)),
    )?.[1] ?? null
  );
}

/** The cost in dollars, rounded to a millionth; undefined for a model without a price. */
export function costOf(model: string, t: TokenCounts): number | undefined {
  const p = priceOf(model);
  if (!p) return undefined;
  const usd =
    (t.inputTokens * p.input +
      t.outputTokens * p.output +
      t.cacheWriteTokens * p.cacheWrite +
      t.cacheReadTokens * p.cacheRead) /
    1e6;
  return Math.round(usd * 1e6) / 1e6;
}
