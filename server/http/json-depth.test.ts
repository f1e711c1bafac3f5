import { describe, expect, it } from "vitest";
import { jsonNestingExceeds } from "./json-depth";

const bytes = (s: string) => Buffer.from(s, "utf8");

describe("jsonNestingExceeds", () => {
  it("counts objects and arrays, allowing exactly the limit", () => {
    expect(jsonNestingExceeds(bytes('{"a":[{"b":[]}]}'), 4)).toBe(false);
    expect(jsonNestingExceeds(bytes('{"a":[{"b":[[]]}]}'), 4)).toBe(true);
    expect(jsonNestingExceeds(bytes("[[],[],[],[]]"), 2)).toBe(false);
  });

  it("ignores brackets inside strings, escaped quotes included", () => {
    expect(jsonNestingExceeds(bytes(`{"s":"${"[".repeat(500)}"}`), 2)).toBe(false);
    expect(jsonNestingExceeds(bytes(`{"s":"a\\"${"{".repeat(500)}"}`), 2)).toBe(false);
    expect(jsonNestingExceeds(bytes(`{"s":"a\\\\"}${"[".repeat(5)}`), 2)).toBe(true); // an escaped backslash ends the string
    expect(jsonNestingExceeds(bytes(`{"€":"${"[".repeat(9)}","😀":[[]]}`), 3)).toBe(false);
  });

  it("judges 8 MiB of brackets in one linear pass", () => {
    expect(jsonNestingExceeds(bytes("[".repeat(8 * 1024 * 1024)), 128)).toBe(true);
    expect(jsonNestingExceeds(bytes("[]".repeat(4 * 1024 * 1024)), 1)).toBe(false);
  });
});
