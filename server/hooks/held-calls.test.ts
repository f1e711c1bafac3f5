import { describe, expect, it } from "vitest";
import { HeldCalls, MAX_HELD_PER_TOKEN } from "./held-calls";

describe("HeldCalls", () => {
  it("holds at most MAX_HELD_PER_TOKEN calls per token; a release frees a slot once", () => {
    const held = new HeldCalls();
    const releases = Array.from({ length: MAX_HELD_PER_TOKEN }, () => held.acquire("t1")!);
    expect(releases.every((r) => typeof r === "function")).toBe(true);
    expect(held.count("t1")).toBe(MAX_HELD_PER_TOKEN);
    expect(held.acquire("t1")).toBeNull(); // full: refused without throwing (the gate turns it into a deny)
    expect(held.count("t1")).toBe(MAX_HELD_PER_TOKEN);
    const other = held.acquire("t2"); // another token has its own slots
    expect(other).toBeTypeOf("function");
    other!();
    releases[0]!();
    releases[0]!(); // twice is once
    expect(held.count("t1")).toBe(MAX_HELD_PER_TOKEN - 1);
    expect(held.acquire("t1")).toBeTypeOf("function");
    for (const r of releases) r();
    expect(held.count("t1")).toBe(1);
    expect(held.count("t2")).toBe(0);
  });
});
