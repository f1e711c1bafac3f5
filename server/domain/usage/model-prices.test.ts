import { describe, expect, it } from "vitest";
import { costOf, priceOf } from "./model-prices";

describe("model prices", () => {
  it("knows a model with or without its release date", () => {
    expect(priceOf("claude-sonnet-4-5-20250929")).toEqual(priceOf("claude-sonnet-4-5"));
    expect(priceOf("claude-opus-4-5-20251101")?.input).toBe(5);
    expect(priceOf("claude-opus-4-1-20250805")?.input).toBe(15);
    expect(priceOf("claude-haiku-4-5-20251001")?.output).toBe(5);
  });

  it("does not guess: an unknown model (even a near name) has no price and no cost", () => {
    expect(priceOf("claude-opus-4-6")).toBeNull();
    expect(priceOf("gpt-5")).toBeNull();
    expect(
      costOf("gpt-5", { inputTokens: 1000, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }),
    ).toBeUndefined();
  });

  it("prices each kind of token", () => {
    // Sonnet: $3 in, $15 out, $3.75 cache write, $0.30 cache read per million.
    expect(
      costOf("claude-sonnet-4-5-20250929", {
        inputTokens: 1_000_000,
        outputTokens: 100_000,
        cacheReadTokens: 2_000_000,
        cacheWriteTokens: 400_000,
      }),
    ).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 6);
  });
});
