import { describe, expect, it } from "vitest";
import { tabForKey } from "./pod-tabs";

describe("pod tabs keys (WAI-ARIA tabs pattern)", () => {
  it("Right and Left move one tab and wrap around", () => {
    expect(tabForKey("ArrowRight", 0, 7)).toBe(1);
    expect(tabForKey("ArrowRight", 6, 7)).toBe(0);
    expect(tabForKey("ArrowLeft", 0, 7)).toBe(6);
    expect(tabForKey("ArrowLeft", 3, 7)).toBe(2);
  });
  it("Home and End go to the first and last tab; other keys do nothing", () => {
    expect(tabForKey("Home", 4, 7)).toBe(0);
    expect(tabForKey("End", 1, 7)).toBe(6);
    expect(tabForKey("a", 1, 7)).toBeNull();
    expect(tabForKey("ArrowDown", 1, 7)).toBeNull();
  });
});
