import { describe, expect, it } from "vitest";
import { SIGNAL_COLUMNS, nextSort, sortAgents } from "./signal-columns";
import { sampleAgent, samplePodSignals } from "@/server/testing/sample-signals";

const col = (id: string) => SIGNAL_COLUMNS.find((c) => c.id === id)!;

describe("the per-agent signals table", () => {
  const { agents } = samplePodSignals();
  const [impl, rev] = agents as [(typeof agents)[0], (typeof agents)[0]];

  it("shows rates as percentages with the counts behind them, and a dash when there is nothing to divide", () => {
    expect(col("approval").text(impl)).toBe("67%");
    expect(col("approval").title!(impl)).toBe(
      "2 approved of 3 decided; 1 rejected, 1 changes requested, 0 reversals",
    );
    expect(col("approval").text(rev)).toBe("—");
    expect(col("rigor").text(rev)).toBe("50%");
    expect(col("rigor").title!(rev)).toBe("2 of 4 reviews found something");
    expect(col("cadence").title!(impl)).toBe("3 of 4 checkpoints on cadence, 1 late");
    expect(col("review-time").text(rev)).toBe("1 min");
    expect(col("cost").text(impl)).toBe("$4.20");
    expect(col("agent").text(impl)).toBe("Implementer");
  });

  it("shows reversals as a column of its own, with the rejected tasks behind them", () => {
    const reversed = sampleAgent("impl2", {
      implementer: { ...impl.implementer, tasksRejected: 3, reversals: 2 },
    });
    expect(col("reversals").group).toBe("Implementer");
    expect(col("reversals").text(reversed)).toBe("2");
    expect(col("reversals").title!(reversed)).toBe("2 of 3 rejected tasks had a reviewer's approval");
  });

  it("explains every column in plain words and how it is counted", () => {
    for (const c of SIGNAL_COLUMNS) {
      expect(c.explain.meaning, c.id).toMatch(/^[A-Z].{20,}\.$/);
      expect(c.explain.counted, c.id).toMatch(/^[A-Z].{20,}\.$/);
    }
    expect(new Set(SIGNAL_COLUMNS.map((c) => c.id)).size).toBe(SIGNAL_COLUMNS.length);
  });

  it("sorts by a column either way, agents without a value last both ways", () => {
    const third = sampleAgent("zed", {}, { approvalRate: 1 });
    const all = [...agents, third];
    expect(sortAgents(all, { column: "approval", dir: "descending" }).map((a) => a.agentId)).toEqual([
      "zed",
      "impl",
      "rev",
    ]);
    expect(sortAgents(all, { column: "approval", dir: "ascending" }).map((a) => a.agentId)).toEqual([
      "impl",
      "zed",
      "rev",
    ]);
    expect(sortAgents(all, { column: "agent", dir: "ascending" }).map((a) => a.agentId)).toEqual([
      "impl",
      "rev",
      "zed",
    ]);
    expect(sortAgents(all, { column: "cost", dir: "descending" }).map((a) => a.agentId)).toEqual([
      "impl",
      "rev",
      "zed",
    ]);
  });

  it("a second click on a column turns its order round", () => {
    const s = nextSort({ column: "agent", dir: "ascending" }, "cost");
    expect(s).toEqual({ column: "cost", dir: "descending" });
    expect(nextSort(s, "cost")).toEqual({ column: "cost", dir: "ascending" });
  });
});
