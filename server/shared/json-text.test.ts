import { describe, expect, it } from "vitest";
import { jsonTextProblem } from "./json-text";

const judge = (s: string, max = 4) => jsonTextProblem(Buffer.from(s, "utf8"), max);

describe("jsonTextProblem", () => {
  it("counts objects and arrays, allowing exactly the limit", () => {
    expect(judge('{"a":[{"b":[]}]}')).toBeNull();
    expect(judge('{"a":[{"b":[[]]}]}')).toBe("too_deep");
    expect(judge("[[],[],[],[]]", 2)).toBeNull();
  });

  it("ignores brackets inside strings, escaped quotes included", () => {
    expect(judge(`{"s":"${"[".repeat(500)}"}`, 2)).toBeNull();
    expect(judge(`{"s":"a\\"${"{".repeat(500)}"}`, 2)).toBeNull();
    expect(judge(`{"s":"a\\\\"}${"[".repeat(5)}`, 2)).toBe("too_deep"); // an escaped backslash ends the string
    expect(judge(`{"€":"${"[".repeat(9)}","😀":[[]]}`, 3)).toBeNull();
  });

  it("finds NUL written as an escape, in values and keys, but not an escaped backslash before u0000", () => {
    expect(judge('{"a":"x\\u0000y"}')).toBe("nul");
    expect(judge('{"\\u0000":1}')).toBe("nul");
    expect(judge('{"a":"\\\\u0000"}')).toBeNull();
    expect(judge('{"a":"\\u00001"}')).toBe("nul");
    expect(judge('{"a":"\\u0001 and u0000"}')).toBeNull();
  });

  it("finds a lone surrogate escape, but lets a pair through", () => {
    expect(judge('{"text":"\\ud800"}')).toBe("lone_surrogate");
    expect(judge('{"text":"\\uDC00 tail"}')).toBe("lone_surrogate");
    expect(judge('{"\\ud83d":1}')).toBe("lone_surrogate");
    expect(judge('{"text":"\\ud83d\\u0041"}')).toBe("lone_surrogate");
    expect(judge('{"text":"\\ud83d\\ude00 and \\uD83D\\uDE00"}')).toBeNull();
    expect(judge('{"text":"\\\\ud800"}')).toBeNull(); // an escaped backslash, then plain text
  });

  it("judges 8 MiB of brackets in one linear pass", () => {
    expect(jsonTextProblem(Buffer.from("[".repeat(8 * 1024 * 1024)), 128)).toBe("too_deep");
    expect(jsonTextProblem(Buffer.from("[]".repeat(4 * 1024 * 1024)), 1)).toBeNull();
  });
});
