import { describe, expect, it } from "vitest";
import { edgesOf } from "./use-scroll-edges";

describe("a sideways-scrolling box's edges", () => {
  it("has more on the right at the start, on both sides midway, on the left at the end", () => {
    expect(edgesOf({ scrollLeft: 0, clientWidth: 300, scrollWidth: 900 })).toEqual({
      left: false,
      right: true,
    });
    expect(edgesOf({ scrollLeft: 200, clientWidth: 300, scrollWidth: 900 })).toEqual({
      left: true,
      right: true,
    });
    expect(edgesOf({ scrollLeft: 600, clientWidth: 300, scrollWidth: 900 })).toEqual({
      left: true,
      right: false,
    });
  });

  it("a box that fits, or a fraction of a pixel left over, has nothing more", () => {
    expect(edgesOf({ scrollLeft: 0, clientWidth: 900, scrollWidth: 900 })).toEqual({
      left: false,
      right: false,
    });
    expect(edgesOf({ scrollLeft: 599.5, clientWidth: 300, scrollWidth: 900 })).toEqual({
      left: true,
      right: false,
    });
  });
});
