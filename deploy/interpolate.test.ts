import { describe, expect, it } from "vitest";
import { interpolate, interpolateString, MissingVariableError } from "./interpolate";
import { ZService } from "./compose-schema";

describe("compose interpolation", () => {
  const env = { SET: "v", EMPTY: "" };

  it("substitutes, defaults and alternates as compose does (unset vs empty)", () => {
    expect(interpolateString("a-${SET}-$SET-b", env)).toBe("a-v-v-b");
    expect(interpolateString("${UNSET:-d} ${EMPTY:-d} ${EMPTY-d} ${UNSET-d}", env)).toBe("d d  d");
    expect(interpolateString("${SET:+alt}|${EMPTY:+alt}|${EMPTY+alt}|${UNSET+alt}", env)).toBe("alt||alt|");
    expect(interpolateString("cost: $$5 and $${SET}", env)).toBe("cost: $5 and ${SET}");
    expect(interpolateString("${UNSET}", env)).toBe("");
  });

  it("refuses a required variable that is unset (or empty, with the colon), with its message", () => {
    expect(() => interpolateString("${UNSET:?set it in .env}", env)).toThrow(
      new MissingVariableError("UNSET: set it in .env"),
    );
    expect(() => interpolateString("${EMPTY:?set it}", env)).toThrow(MissingVariableError);
    expect(interpolateString("${EMPTY?set it}", env)).toBe("");
    expect(interpolateString("${SET:?set it}", env)).toBe("v");
  });

  it("reaches every string in the tree but leaves keys and other scalars alone", () => {
    expect(interpolate({ "${SET}": ["${SET}", 3, true, null, { k: "$SET" }] }, env)).toEqual({
      "${SET}": ["v", 3, true, null, { k: "v" }],
    });
  });

  it("says so instead of guessing at nested interpolation", () => {
    expect(() => interpolateString("${A:-${B}}", env)).toThrow(/unsupported interpolation/);
  });
});

describe("the compose schema", () => {
  it("refuses a misspelt key, a service with neither image nor build, and a malformed port", () => {
    expect(ZService.safeParse({ image: "x", helthcheck: {} }).success).toBe(false);
    expect(ZService.safeParse({ restart: "always" }).success).toBe(false);
    expect(ZService.safeParse({ image: "x", ports: ["80"] }).success).toBe(false);
    expect(
      ZService.safeParse({
        image: "x",
        ports: ["8080:80"],
        depends_on: { db: { condition: "service_healthy" } },
      }).success,
    ).toBe(true);
    expect(ZService.safeParse({ image: "x", depends_on: { db: { condition: "healthy" } } }).success).toBe(
      false,
    );
  });
});
