import { describe, expect, it } from "vitest";
import { AppError } from "../domain/errors";
import { HeldCalls, MAX_HELD_PER_TOKEN } from "./held-calls";

describe("HeldCalls", () => {
  it("holds at most MAX_HELD_PER_TOKEN calls per token; a release frees a slot once", () => {
    const held = new HeldCalls();
    const releases = Array.from({ length: MAX_HELD_PER_TOKEN }, () => held.acquire("t1"));
    expect(held.count("t1")).toBe(MAX_HELD_PER_TOKEN);
    let refused: unknown = null;
    try {
      held.acquire("t1");
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect([(refused as AppError).status, (refused as AppError).code]).toEqual([429, "too_many_held_calls"]);
    expect(() => held.acquire("t2")()).not.toThrow(); // another token has its own slots
    releases[0]!();
    releases[0]!(); // twice is once
    expect(held.count("t1")).toBe(MAX_HELD_PER_TOKEN - 1);
    held.acquire("t1");
    for (const r of releases) r();
    expect(held.count("t1")).toBe(1);
    expect(held.count("t2")).toBe(0);
  });
});
