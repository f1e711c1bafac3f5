import { describe, expect, it } from "vitest";
import { parsePeriod, periodCaption, periodEmpty, periodWindow, searchWithPeriod } from "./signals-period";

describe("the Signals tab's period", () => {
  it("reads the URL's period; anything unknown is all time", () => {
    expect(parsePeriod("7d")).toBe("7d");
    expect(parsePeriod("24h")).toBe("24h");
    expect(parsePeriod("30d")).toBe("30d");
    expect(parsePeriod(null)).toBe("all");
    expect(parsePeriod("")).toBe("all");
    expect(parsePeriod("7D")).toBe("all");
    expect(parsePeriod("toString")).toBe("all");
  });

  it("all time asks for no window", () => {
    expect(periodWindow("all", Date.parse("2026-03-10T12:34:56.789Z"))).toBeNull();
  });

  it("a window ends at the next whole minute and starts the period before it", () => {
    const now = Date.parse("2026-03-10T12:34:56.789Z");
    expect(periodWindow("24h", now)).toEqual({
      from: "2026-03-09T12:35:00.000Z",
      to: "2026-03-10T12:35:00.000Z",
    });
    expect(periodWindow("7d", now)).toEqual({
      from: "2026-03-03T12:35:00.000Z",
      to: "2026-03-10T12:35:00.000Z",
    });
    expect(periodWindow("30d", now)).toEqual({
      from: "2026-02-08T12:35:00.000Z",
      to: "2026-03-10T12:35:00.000Z",
    });
  });

  it("the window (and so the query key) is the same for the rest of the minute, and moves with the next", () => {
    const a = periodWindow("7d", Date.parse("2026-03-10T12:34:00.001Z"));
    expect(periodWindow("7d", Date.parse("2026-03-10T12:34:59.999Z"))).toEqual(a);
    expect(periodWindow("7d", Date.parse("2026-03-10T12:35:00.001Z"))!.to).toBe("2026-03-10T12:36:00.000Z");
    // On the minute exactly, `to` is now itself: never before now.
    expect(periodWindow("24h", Date.parse("2026-03-10T12:35:00.000Z"))!.to).toBe("2026-03-10T12:35:00.000Z");
  });

  it("says which period the figures count", () => {
    expect(periodCaption("all")).toBe("Counting all time");
    expect(periodCaption("24h")).toBe("Counting the last 24 hours");
    expect(periodCaption("7d")).toBe("Counting the last 7 days");
    expect(periodCaption("30d")).toBe("Counting the last 30 days");
  });

  it("an empty period says so, and how to see more", () => {
    expect(periodEmpty("all")).toBe(
      "No signals yet — reviews, checkpoints and usage appear as agents report.",
    );
    expect(periodEmpty("7d")).toBe(
      "Nothing to count in the last 7 days — choose a longer period, or All time.",
    );
  });

  it("keeps the tab (and anything else) in the URL and drops the period for all time", () => {
    expect(searchWithPeriod("tab=signals", "7d")).toBe("tab=signals&period=7d");
    expect(searchWithPeriod("tab=signals&period=7d", "24h")).toBe("tab=signals&period=24h");
    expect(searchWithPeriod("tab=signals&period=7d", "all")).toBe("tab=signals");
    expect(searchWithPeriod("", "30d")).toBe("period=30d");
  });
});
