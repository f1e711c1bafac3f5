import { describe, expect, it } from "vitest";
import { decideEvents } from "./decide";

describe("decideEvents", () => {
  it("records a verdict on a task as one decision", () => {
    const events = decideEvents(
      { subject: { kind: "task", id: "t1" }, verdict: "approve", rationale: "looks right" },
      "ana@example.com",
    );
    expect(events).toEqual([
      {
        type: "decision",
        actor: "ana@example.com",
        body: {
          subject: { kind: "task", id: "t1" },
          verdict: "approve",
          rationale: "looks right",
          evidenceIds: [],
        },
      },
    ]);
  });

  it("settles a job's escrow with its verdict: accepting releases it, anything else refunds it", () => {
    const job = { kind: "job" as const, id: "j1" };
    const accepted = decideEvents({ subject: job, verdict: "accept", rationale: "delivered" }, "ana");
    expect(accepted.map((e) => e.type)).toEqual(["decision", "job.settled"]);
    expect(accepted[1]).toEqual({
      type: "job.settled",
      actor: "ana",
      body: { jobId: "j1", outcome: "released" },
    });
    expect(decideEvents({ subject: job, verdict: "reject", rationale: "not it" }, "ana")[1]?.body).toEqual({
      jobId: "j1",
      outcome: "refunded",
    });
  });

  it("carries a tie-breaker only when one is given", () => {
    const [decision] = decideEvents(
      { subject: { kind: "plan", id: "plan" }, verdict: "approve", rationale: "ok", tieBreaker: "safety" },
      "ana",
    );
    expect(decision.body).toMatchObject({ tieBreaker: "safety" });
  });
});
