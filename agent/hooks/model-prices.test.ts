import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { costOf, operatorPrices } from "./model-prices";

describe("the hook's prices", () => {
  it("take the operator's price file when PODWATCH_MODEL_PRICES names one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "podwatch-hook-prices-"));
    const file = join(dir, "prices.json");
    writeFileSync(
      file,
      JSON.stringify({ "local-llama": { input: 0.5, output: 1, cacheWrite: 0, cacheRead: 0 } }),
    );
    expect(await operatorPrices({})).toEqual([]);
    const rows = await operatorPrices({ PODWATCH_MODEL_PRICES: file });
    const t = { inputTokens: 2_000_000, outputTokens: 1_000_000, cacheReadTokens: 0, cacheWriteTokens: 0 };
    expect(costOf("local-llama", t, rows)).toBe(2);
    expect(costOf("local-llama", t)).toBeUndefined();
    writeFileSync(file, "{ not json");
    await expect(operatorPrices({ PODWATCH_MODEL_PRICES: file })).rejects.toThrow(/is not JSON/);
    await expect(operatorPrices({ PODWATCH_MODEL_PRICES: join(dir, "gone.json") })).rejects.toThrow(
      /cannot read .*gone\.json \(ENOENT\)/,
    );
  });
});
