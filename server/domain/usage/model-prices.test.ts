import { describe, expect, it } from "vitest";
import { costOf, priceOf, type PriceRow } from "./model-prices";
import { parseModelPriceFile } from "./model-price-file";

const tokens = (inputTokens: number, outputTokens = 0, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

describe("model prices", () => {
  it("knows a model with or without its release date", () => {
    expect(priceOf("claude-sonnet-4-5-20250929")).toEqual(priceOf("claude-sonnet-4-5"));
    expect(priceOf("claude-opus-4-5-20251101")?.input).toBe(5);
    expect(priceOf("claude-opus-4-1-20250805")?.input).toBe(15);
    expect(priceOf("claude-haiku-4-5-20251001")?.output).toBe(5);
  });

  it("prices Claude Code's current default model, apart from its namesakes", () => {
    expect(priceOf("claude-opus-5-5")).toEqual({ input: 4, output: 20, cacheWrite: 5, cacheRead: 0.2 });
    expect(priceOf("claude-opus-5-5[1m]")).toEqual(priceOf("claude-opus-5-5"));
    expect(priceOf("claude-opus-5")?.input).toBe(5);
    expect(priceOf("claude-sonnet-5-5")?.output).toBe(10);
    // $4 in, $20 out, $0.20 cache read, $5 cache write per million.
    expect(costOf("claude-opus-5-5", tokens(1_000_000, 100_000, 2_000_000, 400_000))).toBeCloseTo(
      4 + 2 + 0.4 + 2,
      6,
    );
  });

  it("does not guess: an unknown model (even a near name) has no price and no cost", () => {
    expect(priceOf("claude-opus-4-9")).toBeNull();
    expect(priceOf("claude-opus-5-6")).toBeNull();
    expect(priceOf("gpt-5")).toBeNull();
    expect(costOf("gpt-5", tokens(1000, 1))).toBeUndefined();
  });

  it("prices each kind of token", () => {
    // Sonnet: $3 in, $15 out, $3.75 cache write, $0.30 cache read per million.
    expect(costOf("claude-sonnet-4-5-20250929", tokens(1_000_000, 100_000, 2_000_000, 400_000))).toBeCloseTo(
      3 + 1.5 + 0.6 + 1.5,
      6,
    );
  });

  it("the operator's rows come first: a model the list lacks, or another price for one it has", () => {
    const operator: PriceRow[] = [
      ["gpt-5", { input: 1.25, output: 10, cacheWrite: 0, cacheRead: 0.125 }],
      ["claude-opus-5-5", { input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.1 }],
    ];
    expect(costOf("gpt-5", tokens(1_000_000, 1_000_000), operator)).toBeCloseTo(11.25, 6);
    expect(priceOf("claude-opus-5-5-20260601", operator)?.input).toBe(2);
    expect(priceOf("claude-sonnet-4-5", operator)?.input).toBe(3);
  });
});

describe("the operator's price file", () => {
  it("reads model ids to prices, the longest id first", () => {
    const rows = parseModelPriceFile(
      JSON.stringify({
        "my-model": { input: 1, output: 2, cacheWrite: 0, cacheRead: 0 },
        "my-model-large": { input: 3, output: 4, cacheWrite: 0, cacheRead: 0 },
      }),
      "/etc/prices.json",
    );
    expect(rows.map(([m]) => m)).toEqual(["my-model-large", "my-model"]);
  });

  it("refuses what is not a price file, saying where and why", () => {
    expect(() => parseModelPriceFile("{", "/p.json")).toThrow(/PODWATCH_MODEL_PRICES: \/p.json is not JSON/);
    expect(() => parseModelPriceFile("[]", "/p.json")).toThrow(/not a price file/);
    expect(() =>
      parseModelPriceFile(
        JSON.stringify({ m: { input: -1, output: 2, cacheWrite: 0, cacheRead: 0 } }),
        "/p.json",
      ),
    ).toThrow(/m\.input/);
    expect(() =>
      parseModelPriceFile(JSON.stringify({ m: { input: 1, output: 2, cacheWrite: 0 } }), "/p.json"),
    ).toThrow(/m\.cacheRead/);
    expect(() =>
      parseModelPriceFile(
        JSON.stringify({ m: { input: 1, output: 2, cacheWrite: 0, cacheRead: 0, currency: "EUR" } }),
        "/p.json",
      ),
    ).toThrow(/currency/);
    expect(() =>
      parseModelPriceFile(
        JSON.stringify({ "bad\nid": { input: 1, output: 2, cacheWrite: 0, cacheRead: 0 } }),
        "/p",
      ),
    ).toThrow(/\/p is not a price file/);
  });
});
