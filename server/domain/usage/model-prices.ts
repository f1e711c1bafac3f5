// What a model's tokens cost, to put a costUsd on usage that came without one. US dollars per
// million tokens, from Anthropic's published list prices (standard context, cache writes at the
// 5-minute rate). A model not listed gets no cost (its tokens are still reported, and shown as an
// unknown model), never a guess; an operator prices more models, or other prices, in a price file
// (model-price-file.ts). A row matches the model id with or without its release date
// ("claude-sonnet-4-5-20250929" is claude-sonnet-4-5). Pure and free of zod: every hook loads it.
export type ModelPrice = { input: number; output: number; cacheWrite: number; cacheRead: number };
export type PriceRow = readonly [prefix: string, price: ModelPrice];
export type TokenCounts = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
};

const opus5 = { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 };
const opus4 = { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 };
const sonnet5 = { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 };
const sonnet4 = { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 };

export const MODEL_PRICES: readonly PriceRow[] = [
  // Claude Code's default model; its cache reads are 0.05x the input price, not 0.1x.
  ["claude-opus-5-5", { input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 }],
  ["claude-opus-5", opus5],
  ["claude-opus-4-8", opus5],
  ["claude-opus-4-7", opus5],
  ["claude-opus-4-6", opus5],
  ["claude-opus-4-5", opus5],
  ["claude-opus-4-1", opus4],
  ["claude-opus-4", opus4],
  ["claude-sonnet-5-5", sonnet5],
  ["claude-sonnet-5", sonnet5],
  ["claude-sonnet-4-6", sonnet4],
  ["claude-sonnet-4-5", sonnet4],
  ["claude-sonnet-4", sonnet4],
  ["claude-3-7-sonnet", sonnet4],
  ["claude-haiku-4-5", { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
  ["claude-3-5-haiku", { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
];

/** The price of a model: the operator's rows first, then the list. */
export function priceOf(model: string, operator: readonly PriceRow[] = []): ModelPrice | null {
  // The prefix, then nothing, a release date, or a variant tag ("[1m]", "@20250929"): "claude-opus-4-9" is not opus-4.
  const match = ([prefix]: PriceRow) =>
    model.startsWith(prefix) && /^(-\d{8})?([@[].*)?$/.test(model.slice(prefix.length));
  return (operator.find(match) ?? MODEL_PRICES.find(match))?.[1] ?? null;
}

/** The cost in dollars, rounded to a millionth; undefined for a model without a price. */
export function costOf(
  model: string,
  t: TokenCounts,
  operator: readonly PriceRow[] = [],
): number | undefined {
  const p = priceOf(model, operator);
  if (!p) return undefined;
  const usd =
    (t.inputTokens * p.input +
      t.outputTokens * p.output +
      t.cacheWriteTokens * p.cacheWrite +
      t.cacheReadTokens * p.cacheRead) /
    1e6;
  return Math.round(usd * 1e6) / 1e6;
}
