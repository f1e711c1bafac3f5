import { describe, expect, it } from "vitest";
import { retryDelay, RETRY_DELAYS_MS } from "./schedule";

describe("retry schedule", () => {
  it("retries seven times over a little more than a day, then gives up; the scale shrinks it", () => {
    expect(RETRY_DELAYS_MS.map((_, i) => retryDelay(i + 1, 1))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(retryDelay(8, 1)).toBeNull();
    expect(retryDelay(1, 0.001)).toBe(5);
  });
});
