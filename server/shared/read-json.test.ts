import { describe, expect, it } from "vitest";
import { AppError } from "../domain/errors";
import { parseJsonBytes } from "./read-json";

const refusal = (text: string) => {
  try {
    parseJsonBytes(Buffer.from(text));
  } catch (e) {
    return e instanceof AppError ? `${e.status} ${e.code} ${e.issues?.[0]?.path}` : String(e);
  }
  return null;
};

describe("parseJsonBytes", () => {
  it("refuses the key __proto__ however it is spelled, and names where it is", () => {
    expect(refusal('{"a":{"__proto__":{"x":1}}}')).toBe("400 invalid_request a.__proto__");
    // Escapes spell the same key: JSON.parse decodes them.
    expect(refusal(String.raw`{"a":[{"\u005f_proto__":1}]}`)).toBe("400 invalid_request a.0.__proto__");
    expect(refusal(String.raw`{"b":{"__pr\u006fto__":null}}`)).toBe("400 invalid_request b.__proto__");
  });

  it("takes bodies that only look like it", () => {
    expect(parseJsonBytes(Buffer.from('{"text":"__proto__","n":{"proto":1}}'))).toEqual({
      text: "__proto__",
      n: { proto: 1 },
    });
    expect(parseJsonBytes(Buffer.from(String.raw`{"t":"\u00e9"}`))).toEqual({ t: "é" });
  });
});
