import { describe, expect, it } from "vitest";
import type { SignalsExport } from "@/server/wire/signals";
import { agentEntries, agentsIn, exportUrl, onlyAgent, podsIn } from "./agents-across-pods";
import { sampleAgent } from "@/server/testing/sample-signals";

const row = (podId: string, podName: string, agentId: string, costUsd: number) => ({
  ...sampleAgent(agentId, {}, { costUsd }),
  podId,
  podName,
});
const exp: SignalsExport = {
  from: null,
  to: null,
  rows: [row("p2", "Beta", "impl", 1), row("p1", "Alpha", "impl", 2), row("p1", "Alpha", "rev", 0.5)],
  agents: [sampleAgent("impl", {}, { costUsd: 3 }), sampleAgent("rev", {}, { costUsd: 0.5 })],
};

describe("the Agents page", () => {
  it("lists each agent once with its figures across pods and its pods as rows", () => {
    const all = agentEntries(exp, null);
    expect(all.map((e) => [e.agent.agentId, e.agent.rates.costUsd, e.rows.map((r) => r.podName)])).toEqual([
      ["impl", 3, ["Alpha", "Beta"]],
      ["rev", 0.5, ["Alpha"]],
    ]);
  });
  it("filtered by a pod: only its agents, with that pod's figures", () => {
    expect(agentEntries(exp, "p2").map((e) => [e.agent.agentId, e.agent.rates.costUsd])).toEqual([
      ["impl", 1],
    ]);
    expect(podsIn(exp)).toEqual([
      { podId: "p1", podName: "Alpha" },
      { podId: "p2", podName: "Beta" },
    ]);
  });
  it("download links carry the filter", () => {
    expect(exportUrl("csv", null)).toBe("/api/v1/signals?format=csv");
    expect(exportUrl("json", "p 1")).toBe("/api/v1/signals?pod=p+1");
    expect(exportUrl("csv", "p1")).toBe("/api/v1/signals?pod=p1&format=csv");
    expect(exportUrl("csv", "p1", "rev")).toBe("/api/v1/signals?pod=p1&agent=rev&format=csv");
    expect(exportUrl("json", null, "a&b=c")).toBe("/api/v1/signals?agent=a%26b%3Dc");
  });
  it("the agent filter offers the agents listed, and narrows to one", () => {
    const all = agentEntries(exp, null);
    expect(agentsIn(all).map((a) => a.agentId)).toEqual(["impl", "rev"]);
    expect(agentsIn(agentEntries(exp, "p2")).map((a) => a.agentId)).toEqual(["impl"]);
    expect(onlyAgent(all, "rev").map((e) => e.agent.agentId)).toEqual(["rev"]);
    expect(onlyAgent(all, null)).toBe(all);
    expect(onlyAgent(agentEntries(exp, "p2"), "rev")).toEqual([]);
  });
});
