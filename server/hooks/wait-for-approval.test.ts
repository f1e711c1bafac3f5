import { describe, expect, it } from "vitest";
import type { TapeEvent } from "../wire/events";
import { answersRequest } from "./wait-for-approval";

const ev = (type: string, body: unknown) => ({ type, body }) as TapeEvent;

describe("answersRequest: a held call re-reads the pod's state only for a commit that can answer it", () => {
  it("wakes for its own answer and its own deadline, nothing else", () => {
    expect(answersRequest(ev("tool.approval.answered", { requestId: "r1", decision: "allow" }), "r1")).toBe(
      true,
    );
    expect(
      answersRequest(ev("deadline.passed", { itemId: "tool:r1", subject: { kind: "tool", id: "r1" } }), "r1"),
    ).toBe(true);
    expect(answersRequest(ev("tool.approval.answered", { requestId: "r2", decision: "allow" }), "r1")).toBe(
      false,
    );
    expect(
      answersRequest(ev("deadline.passed", { itemId: "tool:r2", subject: { kind: "tool", id: "r2" } }), "r1"),
    ).toBe(false);
    expect(
      answersRequest(
        ev("deadline.passed", { itemId: "esc:r1", subject: { kind: "escalation", id: "r1" } }),
        "r1",
      ),
    ).toBe(false);
    expect(answersRequest(ev("tool.call", { requestId: "r1" }), "r1")).toBe(false);
    expect(answersRequest(ev("deadline.passed", null), "r1")).toBe(false);
  });
});
