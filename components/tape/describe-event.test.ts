import { describe, expect, it } from "vitest";
import { describeEvent } from "./describe-event";

describe("describeEvent", () => {
  it("describes an event in one line from its body", () => {
    expect(describeEvent("handoff", { to: "agent-b", reason: "needs review" })).toBe(
      "Handoff to agent-b: needs review",
    );
    expect(describeEvent("checkpoint", { completed: ["a"], next: [], blocked: ["b"] })).toBe("✓ a  ⚠ b");
  });
  it("answers null, never throws, for a type it does not know or a body it cannot read", () => {
    expect(describeEvent("no.such_type", {})).toBeNull();
    expect(describeEvent("constructor", {})).toBeNull();
    expect(describeEvent("checkpoint", null)).toBeNull();
  });
  it("leaves an access grant to the tape's type label", () => {
    expect(describeEvent("access.granted", { memberId: "ann@example.com", access: "approver" })).toBeNull();
  });
});
