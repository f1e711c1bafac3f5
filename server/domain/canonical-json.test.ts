import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json";

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined members", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });
  it("encodes equal values identically whatever their key order", () => {
    expect(canonicalJson({ x: "é", y: [null, true] })).toBe(canonicalJson({ y: [null, true], x: "é" }));
  });
  it("refuses numbers JSON cannot represent", () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson([Infinity])).toThrow(TypeError);
  });
  it("encodes undefined inside arrays as null, like JSON.stringify", () => {
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
  });
});
