import { describe, expect, it } from "vitest";
import { costText, totalText } from "./usage-cost";

describe("usage cost text", () => {
  it("a model without a price reads as unknown, never as $0 or free", () => {
    expect(costText({ costUsd: 0, unpriced: 3 })).toBe("unknown model");
    expect(costText({ costUsd: 0.0128, unpriced: 0 })).toBe("$0.0128");
    expect(costText({ costUsd: 2.5, unpriced: 1 })).toBe("$2.50 + unknown");
    expect(costText({ costUsd: 0, unpriced: 0 })).toBe("—");
  });
  it("the total says what it leaves out", () => {
    expect(totalText([{ costUsd: 1.5, unpriced: 0 }])).toBe("total $1.50");
    expect(
      totalText([
        { costUsd: 1.5, unpriced: 0 },
        { costUsd: 0, unpriced: 2 },
      ]),
    ).toBe("total $1.50 (not counting 1 of unknown cost)");
  });
});
