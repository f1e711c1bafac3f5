import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { EVENT_BOUNDS, findBoundsViolation } from "./event-bounds";

/** Built bottom-up without recursion: `{ d: { d: … "leaf" } }`, `levels` objects deep. */
const nested = (levels: number): unknown => {
  let v: unknown = "leaf";
  for (let i = 0; i < levels; i++) v = { d: v };
  return v;
};

describe("event bounds", () => {
  it("accepts a body exactly at each limit", () => {
    expect(findBoundsViolation(nested(EVENT_BOUNDS.maxDepth))).toBeNull();
    expect(findBoundsViolation(Array.from({ length: EVENT_BOUNDS.maxEntries }, () => 0))).toBeNull();
    // {"s":"…"} is 8 bytes around the string.
    expect(findBoundsViolation({ s: "x".repeat(EVENT_BOUNDS.maxBytes - 8) })).toBeNull();
    expect(findBoundsViolation("a scalar")).toBeNull();
    expect(findBoundsViolation(undefined)).toBeNull();
  });

  it("refuses one level too deep, naming the path to the level that breaks it", () => {
    const v = findBoundsViolation({ kind: "OBSERVATION", BODY: nested(EVENT_BOUNDS.maxDepth) });
    expect(v?.limit).toBe("depth");
    expect(v?.path).toEqual(["BODY", ...Array(EVENT_BOUNDS.maxDepth - 1).fill("d")]);
    expect(v?.message).toContain(`${EVENT_BOUNDS.maxDepth} levels`);
  });

  it("judges a body nested 1,000,000 levels deep without overflowing the stack", () => {
    expect(findBoundsViolation(nested(1_000_000))?.limit).toBe("depth");
    let arrays: unknown = [];
    for (let i = 0; i < 1_000_000; i++) arrays = [arrays];
    expect(findBoundsViolation(arrays)?.path).toHaveLength(EVENT_BOUNDS.maxDepth);
  });

  it("refuses too many entries, counting keys and items at every level", () => {
    const wide = Object.fromEntries(
      Array.from({ length: 600 }, (_, i) => [`k${i}`, Array.from({ length: 200 }, () => 1)]),
    );
    expect(findBoundsViolation(wide)?.limit).toBe("entries");
  });

  it("stops on a cyclic value instead of looping", () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    a.again = a;
    expect(findBoundsViolation(a)?.limit).toMatch(/depth|entries/);
  });

  it("counts size in UTF-8 bytes, not UTF-16 units", () => {
    const euro = "€".repeat(Math.ceil(EVENT_BOUNDS.maxBytes / 3)); // 3 bytes each, 1 unit each
    expect(findBoundsViolation({ s: euro })?.limit).toBe("size");
    const emoji = "😀".repeat(Math.floor((EVENT_BOUNDS.maxBytes - 8) / 4)); // 4 bytes, 2 units each
    expect(findBoundsViolation({ s: emoji })).toBeNull();
    expect(findBoundsViolation({ s: emoji + "😀" })?.limit).toBe("size");
  });
});

/** The walk as first written (an array of entries and a path per container): the reference the leaner one must match. */
function referenceViolation(body: unknown, bounds: typeof EVENT_BOUNDS) {
  type Frame = { value: object; depth: number; path: (string | number)[] };
  const isContainer = (v: unknown): v is object => typeof v === "object" && v !== null;
  const stack: Frame[] = isContainer(body) ? [{ value: body, depth: 1, path: [] }] : [];
  let entries = 0;
  while (stack.length) {
    const { value, depth, path } = stack.pop()!;
    if (depth > bounds.maxDepth) return { limit: "depth", path };
    const children: [string | number, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.entries(value);
    entries += children.length;
    if (entries > bounds.maxEntries) return { limit: "entries", path: [] };
    for (const [key, child] of children)
      if (isContainer(child)) stack.push({ value: child, depth: depth + 1, path: [...path, key] });
  }
  const bytes = new TextEncoder().encode(JSON.stringify(body) ?? "").length;
  return bytes > bounds.maxBytes ? { limit: "size", path: [] } : null;
}

describe("event bounds, against the reference walk", () => {
  it("finds the same violation (limit and path), or none, for any JSON value under small bounds", () => {
    const small = { maxDepth: 4, maxEntries: 25, maxBytes: 120 } as unknown as typeof EVENT_BOUNDS;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 7 }), (body) => {
        const v = findBoundsViolation(body, small);
        expect(v && { limit: v.limit, path: v.path }).toEqual(referenceViolation(body, small));
      }),
      { numRuns: 2000 },
    );
  });
});
