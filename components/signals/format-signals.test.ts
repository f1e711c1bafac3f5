import { describe, expect, it } from "vitest";
import { compact, duration, percent, plural, usd } from "./format-signals";

describe("signal formats", () => {
  it("rates are whole percentages, a missing rate a dash", () => {
    expect(percent(0.666)).toBe("67%");
    expect(percent(1)).toBe("100%");
    expect(percent(0)).toBe("0%");
    expect(percent(null)).toBe("—");
  });
  it("money keeps small amounts visible", () => {
    expect(usd(4.2)).toBe("$4.20");
    expect(usd(0.0542)).toBe("$0.0542");
    expect(usd(0)).toBe("$0.00");
  });
  it("tokens compact, durations in the largest short unit", () => {
    expect(compact(950)).toBe("950");
    expect(compact(12_900)).toBe("12.9k");
    expect(compact(3_400_000)).toBe("3.4M");
    expect(compact(250_000)).toBe("250k");
    expect(duration(45_000)).toBe("45 s");
    expect(duration(12 * 60_000)).toBe("12 min");
    expect(duration(90 * 60_000)).toBe("1.5 h");
    expect(duration(null)).toBe("—");
  });
  it("plurals", () => {
    expect(plural(1, "review")).toBe("1 review");
    expect(plural(2, "review")).toBe("2 reviews");
    expect(plural(3, "staleness episode")).toBe("3 staleness episodes");
  });
});
