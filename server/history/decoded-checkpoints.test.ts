import { describe, expect, it } from "vitest";
import { emptyPodState } from "../domain/state/pod-state";
import { DecodedCheckpoints } from "./decoded-checkpoints";

const at = (seq: number) => ({ state: { ...emptyPodState(), seq }, maxAt: "" });

describe("decoded checkpoints", () => {
  it("keeps what fits in its bytes, the least recently used leaving first", () => {
    const held = new DecodedCheckpoints(300);
    held.put("p", at(1), 100);
    held.put("p", at(2), 100);
    held.put("q", at(1), 100);
    expect(held.get("p", 1)?.state.seq).toBe(1); // now the most recently used
    held.put("p", at(3), 100);
    expect(held.get("p", 2)).toBeUndefined();
    expect(held.get("p", 1)?.state.seq).toBe(1);
    expect(held.get("q", 1)).toBeDefined();
    expect(held.get("p", 3)).toBeDefined();
    expect(held.size()).toBe(300);
  });

  it("holds nothing larger than its bound, and counts a checkpoint stored twice once", () => {
    const held = new DecodedCheckpoints(150);
    held.put("p", at(1), 200);
    expect(held.get("p", 1)).toBeUndefined();
    held.put("p", at(2), 100);
    held.put("p", at(2), 100);
    expect(held.size()).toBe(100);
  });
});
