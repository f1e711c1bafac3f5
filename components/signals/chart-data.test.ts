import { describe, expect, it } from "vitest";
import {
  MAX_DAYS,
  hasSignals,
  cadenceByAgent,
  cadenceCaption,
  costCaption,
  costRows,
  dayRange,
  reviewCaption,
  reviewRows,
  shortDay,
} from "./chart-data";
import { sampleAgent, samplePodSignals } from "@/server/testing/sample-signals";

describe("the Signals tab's charts", () => {
  it("cost burn-down: the cumulative cost, the caption names each pod cost budget and the figure", () => {
    const v = samplePodSignals();
    expect(costRows(v)).toEqual([
      { t: Date.parse("2026-03-01T10:00:00.000Z"), costUsd: 1.5, seq: 10 },
      { t: Date.parse("2026-03-03T09:00:00.000Z"), costUsd: 4.2, seq: 30 },
    ]);
    expect(costCaption(v)).toBe("$4.20 of $5.00 (budget b-cost).");
    const crossed = {
      ...v,
      budgets: [
        { ...v.budgets[0]!, used: 5.5, exceeded: { seq: 33, at: "2026-03-03T10:00:00.000Z", used: 5.1 } },
      ],
    };
    expect(costCaption(crossed)).toBe("$5.50 of $5.00 (budget b-cost), exceeded at $5.10.");
    expect(costCaption({ ...v, budgets: [] })).toBe("$4.20 spent; no cost budget set.");
    expect(costCaption({ ...v, budgets: [], cost: [] })).toBe("No cost reported yet.");
  });

  it("review outcomes per day, quiet days filled in", () => {
    const rows = reviewRows(samplePodSignals().pod);
    expect(rows).toEqual([
      { day: "2026-03-01", approve: 1, changes_requested: 1, reject: 0 },
      { day: "2026-03-02", approve: 0, changes_requested: 0, reject: 0 },
      { day: "2026-03-03", approve: 1, changes_requested: 0, reject: 1 },
    ]);
    expect(reviewCaption(rows)).toBe("4 reviews over 3 days: 2 approve, 1 changes requested, 1 reject.");
    expect(reviewCaption(reviewRows(sampleAgent("*")))).toBe("No reviews yet.");
  });

  it("checkpoint cadence per agent per day, with its staleness episodes", () => {
    const agents = cadenceByAgent(samplePodSignals());
    expect(agents.map((a) => a.agentId)).toEqual(["impl"]);
    expect(agents[0]!.rows).toEqual([
      { day: "2026-03-01", onTime: 2, late: 0 },
      { day: "2026-03-02", onTime: 0, late: 0 },
      { day: "2026-03-03", onTime: 1, late: 1 },
    ]);
    expect(cadenceCaption(agents)).toBe("Implementer: 3 on time, 1 late, 1 staleness episode.");
    expect(cadenceCaption([])).toBe("No checkpoints yet.");
  });

  it("a long history keeps the latest days; junk keys are ignored", () => {
    const days = dayRange(["2025-01-01", "2026-03-03", "not-a-day", "__proto__"]);
    expect(days).toHaveLength(MAX_DAYS);
    expect(days.at(-1)).toBe("2026-03-03");
    expect(dayRange([])).toEqual([]);
    expect(shortDay("2026-03-03")).toBe("Mar 3");
  });
});

describe("the empty state", () => {
  it("a pod whose agents only joined has no signals yet", () => {
    const v = samplePodSignals();
    expect(hasSignals(v)).toBe(true);
    expect(hasSignals({ ...v, cost: [], agents: [sampleAgent("impl"), sampleAgent("rev")] })).toBe(false);
    expect(
      hasSignals({
        ...v,
        cost: [],
        agents: [sampleAgent("impl", { cadence: { onTime: 0, late: 0, staleEpisodes: 1 } })],
      }),
    ).toBe(true);
  });
});
