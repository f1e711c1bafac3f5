import { describe, expect, it } from "vitest";
import { stepFocus } from "./use-inbox-focus";

describe("j/k over the inbox", () => {
  it("the first j or k selects the first item", () => {
    expect(stepFocus(-1, 3, "j")).toBe(0);
    expect(stepFocus(-1, 3, "k")).toBe(0);
  });
  it("moves one item and stops at either end", () => {
    expect(stepFocus(0, 3, "j")).toBe(1);
    expect(stepFocus(2, 3, "j")).toBe(2);
    expect(stepFocus(1, 3, "k")).toBe(0);
    expect(stepFocus(0, 3, "k")).toBe(0);
  });
  it("an empty inbox selects nothing", () => {
    expect(stepFocus(-1, 0, "j")).toBe(-1);
  });
});
