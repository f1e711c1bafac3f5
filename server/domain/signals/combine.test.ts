// Merging signals keyed by names agents choose (models, tools, days, runs): a name that is also a
// built-in property of objects ("__proto__", "constructor") is a key like any other, in every sum.
import { describe, expect, it } from "vitest";
import { mergeAgentSignals, podTotals } from "./combine";
import { emptyAgentSignals } from "./signal-kit";
import { emptyPodSignals, type AgentSignals, type UsageTotals } from "./signal-types";

const usage = (inputTokens: number): UsageTotals => ({
  inputTokens,
  outputTokens: 1,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0.5,
});
/** Records as the stored projection gives them back: JSON.parse makes "__proto__" an own key. */
const parsed = <T>(entries: [string, T][]): Record<string, T> =>
  JSON.parse(JSON.stringify(Object.fromEntries(entries)));

function agent(id: string, n: number, odd = true): AgentSignals {
  const a = emptyAgentSignals(id);
  const byModel = parsed<UsageTotals>([
    ...(odd ? [["__proto__", usage(n)] as [string, UsageTotals]] : []),
    ["opus", usage(1)],
  ]);
  const tools = parsed([
    ["constructor", { calls: n, failed: 0 }],
    ...(odd ? [["__proto__", { calls: 1, failed: 1 }] as [string, { calls: number; failed: number }]] : []),
  ]);
  return { ...a, usage: { ...a.usage, byModel, tools } };
}

describe("mergeAgentSignals", () => {
  it("adds a model or tool named like a built-in property as its own key, prototype untouched", () => {
    const both = mergeAgentSignals(agent("a", 10), agent("b", 5));
    expect(Object.entries(both.usage.byModel)).toEqual([
      ["__proto__", { ...usage(15), outputTokens: 2, costUsd: 1 }],
      ["opus", { ...usage(2), outputTokens: 2, costUsd: 1 }],
    ]);
    expect(Object.entries(both.usage.tools)).toEqual([
      ["constructor", { calls: 15, failed: 0 }],
      ["__proto__", { calls: 2, failed: 2 }],
    ]);
    // Only the second has it: the merge must create the key, not set the result's prototype.
    const one = mergeAgentSignals(agent("a", 10, false), agent("b", 5));
    expect(Object.getPrototypeOf(one.usage.byModel)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(one.usage.tools)).toBe(Object.prototype);
    expect(Object.entries(one.usage.byModel)).toEqual([
      ["opus", { ...usage(2), outputTokens: 2, costUsd: 1 }],
      ["__proto__", usage(5)],
    ]);
    expect(Object.entries(one.usage.tools)).toEqual([
      ["constructor", { calls: 15, failed: 0 }],
      ["__proto__", { calls: 1, failed: 1 }],
    ]);
  });

  it("keeps such a key in a pod's totals, coming from one agent only", () => {
    const sig = { ...emptyPodSignals(), agents: parsed([["x", agent("x", 7)]]) };
    const total = podTotals(sig);
    expect(Object.keys(total.usage.byModel)).toEqual(["__proto__", "opus"]);
    expect(
      Object.hasOwn(total.usage.byModel, "__proto__") && total.usage.byModel["__proto__"]!.inputTokens,
    ).toBe(7);
    expect(Object.keys(total.usage.tools)).toEqual(["constructor", "__proto__"]);
  });
});
