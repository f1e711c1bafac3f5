import { describe, expect, it } from "vitest";
import { describeTime } from "./time-ago";

const SECOND = 1000;
const HOUR = 3600 * SECOND;

describe("describeTime", () => {
  it("says how long ago a past time was", () => {
    expect(describeTime(2 * SECOND)).toBe("just now");
    expect(describeTime(12 * SECOND)).toBe("12s ago");
    expect(describeTime(5 * 60 * SECOND)).toBe("5m ago");
    expect(describeTime(3 * HOUR)).toBe("3h ago");
    expect(describeTime(72 * HOUR)).toBe("3d ago");
  });

  it("says how long until a time still to come (a link's expiry), never 'just now'", () => {
    expect(describeTime(-7 * 24 * HOUR)).toBe("in 7d");
    expect(describeTime(-24 * HOUR)).toBe("in 24h");
    expect(describeTime(-90 * 60 * SECOND)).toBe("in 2h");
    expect(describeTime(-10 * 60 * SECOND)).toBe("in 10m");
    expect(describeTime(-30 * SECOND)).toBe("in 30s");
    expect(describeTime(-2 * SECOND)).toBe("in a moment");
  });
});
