import { describe, expect, it } from "vitest";
import { agentTrends } from "./agent-trends";
import { sparkPoints } from "./sparkline";
import { sampleAgent, samplePodSignals } from "@/server/testing/sample-signals";

describe("an agent's trend sparklines", () => {
  it("cost and reviews per day, quiet days as zero, labelled in words", () => {
    const [impl, rev] = samplePodSignals().agents;
    const t = agentTrends(impl!);
    expect(t.days).toEqual(["2026-03-01", "2026-03-02", "2026-03-03"]);
    expect(t.cost).toEqual([1.5, 0, 2.7]);
    expect(t.costLabel).toBe("Cost per day from 2026-03-01 to 2026-03-03: $1.50, $0.00, $2.70");
    expect(agentTrends(rev!).reviews).toEqual([2, 0, 2]);
    expect(agentTrends(sampleAgent("new")).reviewsLabel).toBe("Reviews per day: none yet");
  });
  it("points span the box; a single or flat series stays inside it", () => {
    expect(sparkPoints([0, 2])).toBe("0.0,22.0 96.0,2.0");
    expect(sparkPoints([3])).toBe("0.0,2.0 96.0,2.0");
    expect(sparkPoints([0, 0, 0])).toBe("0.0,22.0 48.0,22.0 96.0,22.0");
    expect(sparkPoints([])).toBe("");
  });
});
