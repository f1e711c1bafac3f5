import { describe, expect, it } from "vitest";
import { quietUntil } from "./quiet-hours";

describe("quietUntil", () => {
  it("is null without quiet hours or outside them", () => {
    expect(quietUntil(null, new Date("2026-03-02T12:00:00Z"))).toBeNull();
    expect(
      quietUntil({ start: "22:00", end: "07:00", timeZone: "UTC" }, new Date("2026-03-02T12:00:00Z")),
    ).toBeNull();
    expect(
      quietUntil({ start: "09:00", end: "17:00", timeZone: "UTC" }, new Date("2026-03-02T17:00:00Z")),
    ).toBeNull();
  });

  it("ends at the window's end, past midnight too", () => {
    expect(
      quietUntil(
        { start: "22:00", end: "07:00", timeZone: "UTC" },
        new Date("2026-03-02T23:30:15Z"),
      )?.toISOString(),
    ).toBe("2026-03-03T07:00:00.000Z");
    expect(
      quietUntil(
        { start: "22:00", end: "07:00", timeZone: "UTC" },
        new Date("2026-03-03T06:59:00Z"),
      )?.toISOString(),
    ).toBe("2026-03-03T07:00:00.000Z");
    expect(
      quietUntil(
        { start: "09:00", end: "17:00", timeZone: "UTC" },
        new Date("2026-03-02T09:00:00Z"),
      )?.toISOString(),
    ).toBe("2026-03-02T17:00:00.000Z");
  });

  it("reads the window in the person's time zone", () => {
    // 23:30 in Berlin (UTC+1 in March before DST) is 22:30 UTC; quiet until 07:00 Berlin = 06:00 UTC.
    expect(
      quietUntil(
        { start: "22:00", end: "07:00", timeZone: "Europe/Berlin" },
        new Date("2026-03-02T22:30:00Z"),
      )?.toISOString(),
    ).toBe("2026-03-03T06:00:00.000Z");
    expect(
      quietUntil(
        { start: "22:00", end: "07:00", timeZone: "America/New_York" },
        new Date("2026-03-02T22:30:00Z"),
      ),
    ).toBeNull();
  });
});
