// Usage signals on hand-made tapes: per model, per tool, per run and per day; the pod's cost curve.
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { MAX_COST_POINTS, MAX_RUNS, MAX_TOOLS, OTHER_TOOL, thinCostPoints } from "./step-usage-signals";
import type { AgentSignals } from "./signal-types";

const sig = (t: Tape, id: string): AgentSignals => t.state.signals.agents[id]!;
const usage = (model: string, inputTokens: number, outputTokens: number, costUsd?: number) => ({
  model,
  inputTokens,
  outputTokens,
  cacheReadTokens: 1,
  ...(costUsd !== undefined ? { costUsd } : {}),
});

describe("usage signals", () => {
  it("tokens and cost per model, per run and per UTC day", () => {
    const t = Tape.team();
    t.now = "2026-11-22T23:59:00.000Z";
    t.add("session.started", "impl", { via: "claude-code" }, { sessionId: "s1" });
    t.add("usage.reported", "impl", usage("opus", 100, 10, 0.5), { sessionId: "s1" });
    t.now = "2026-11-23T00:01:00.000Z";
    t.add("usage.reported", "impl", usage("opus", 50, 5, 0.25), { sessionId: "s1" });
    t.add("usage.reported", "impl", usage("haiku", 7, 3), { sessionId: "s2" });
    const a = sig(t, "impl");
    expect(a.usage.byModel).toEqual({
      opus: { inputTokens: 150, outputTokens: 15, cacheReadTokens: 2, cacheWriteTokens: 0, costUsd: 0.75 },
      haiku: { inputTokens: 7, outputTokens: 3, cacheReadTokens: 1, cacheWriteTokens: 0, costUsd: 0 },
    });
    expect(a.usage.sessions).toBe(2); // s2 never said session.started: first sight counts
    expect(a.runs["s1"]).toEqual({
      sessionId: "s1",
      firstAt: "2026-11-22T23:59:00.000Z",
      lastAt: "2026-11-23T00:01:00.000Z",
      toolCalls: 0,
      inputTokens: 150,
      outputTokens: 15,
      cacheReadTokens: 2,
      cacheWriteTokens: 0,
      costUsd: 0.75,
    });
    expect(a.days["2026-11-22"]).toMatchObject({ inputTokens: 100, outputTokens: 10, costUsd: 0.5 });
    expect(a.days["2026-11-23"]).toMatchObject({ inputTokens: 57, outputTokens: 8, costUsd: 0.25 });
    // The pod's cumulative cost: one point per report with a cost.
    expect(t.state.signals.cost).toEqual([
      { seq: t.state.seq - 2, at: "2026-11-22T23:59:00.000Z", costUsd: 0.5 },
      { seq: t.state.seq - 1, at: "2026-11-23T00:01:00.000Z", costUsd: 0.75 },
    ]);
  });

  it("a non-member's usage (admin automation) counts in the pod's cost, not as an agent", () => {
    const t = Tape.team();
    t.add("usage.reported", "bot", usage("opus", 1, 1, 2));
    expect(t.state.signals.agents["bot"]).toBeUndefined();
    expect(t.state.signals.cost.map((p) => p.costUsd)).toEqual([2]);
  });

  it("tool calls per tool (started) and failures, at most MAX_TOOLS names apart", () => {
    const t = Tape.team();
    const call = (tool: string, phase: string, id: string) =>
      t.add("tool.call", "impl", { toolUseId: id, tool, phase }, { sessionId: "s1" });
    call("Bash", "started", "u1");
    call("Bash", "failed", "u1");
    call("Read", "started", "u2");
    call("Read", "succeeded", "u2");
    expect(sig(t, "impl").usage.tools).toEqual({
      Bash: { calls: 1, failed: 1 },
      Read: { calls: 1, failed: 0 },
    });
    expect(sig(t, "impl").runs["s1"]!.toolCalls).toBe(2);
    expect(sig(t, "impl").days["2026-11-22"]!.toolCalls).toBe(2);
    for (let i = 0; i < MAX_TOOLS; i++) call(`tool-${i}`, "started", `v${i}`);
    call("tool-x", "started", "w1");
    // A built-in property name is no tool name: the schema refuses it before any projection keys by it.
    expect(() => call("__proto__", "started", "w2")).toThrow(/reserved/);
    const tools = sig(t, "impl").usage.tools;
    expect(Object.keys(tools)).toHaveLength(MAX_TOOLS + 1);
    expect(tools[OTHER_TOOL]).toEqual({ calls: 3, failed: 0 }); // tool-98, tool-99 and tool-x
    expect(tools["Bash"]).toEqual({ calls: 1, failed: 1 }); // a tool already counted stays apart
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
  });

  it("keeps the latest MAX_RUNS runs; the one least recently active leaves", () => {
    const t = Tape.team();
    const at = (i: number) => new Date(Date.parse("2026-11-22T10:00:00.000Z") + i * 1000).toISOString();
    for (let i = 0; i < MAX_RUNS; i++) {
      t.now = at(i);
      t.add("session.started", "impl", { via: "claude-code" }, { sessionId: `s${i}` });
    }
    t.now = at(100);
    t.add("prompt.submitted", "impl", { chars: 3 }, { sessionId: "s0" }); // s0 active again: s1 is now the oldest
    t.add("session.started", "impl", { via: "claude-code" }, { sessionId: "new" });
    const runs = sig(t, "impl").runs;
    expect(Object.keys(runs)).toHaveLength(MAX_RUNS);
    expect(runs["s1"]).toBeUndefined();
    expect(runs["s0"]!.lastAt).toBe(at(100));
    expect(sig(t, "impl").usage.sessions).toBe(MAX_RUNS + 1);
  });
});

describe("the pod's cost curve", () => {
  it("is thinned past MAX_COST_POINTS, keeping the first and the last and the running total", () => {
    const t = Tape.team();
    const n = MAX_COST_POINTS * 3;
    for (let i = 0; i < n; i++) t.add("usage.reported", "impl", usage("opus", 1, 1, 1));
    const cost = t.state.signals.cost;
    expect(cost.length).toBeLessThanOrEqual(MAX_COST_POINTS);
    expect(cost.length).toBeGreaterThan(MAX_COST_POINTS / 4);
    expect(cost[0]!.costUsd).toBe(1);
    expect(cost.at(-1)).toMatchObject({ seq: t.state.seq, costUsd: n });
    expect(cost.map((p) => p.seq)).toEqual([...cost.map((p) => p.seq)].sort((a, b) => a - b));
  });

  it("thinning keeps every other point, the first and the last", () => {
    const points = (k: number) => Array.from({ length: k }, (_, i) => ({ seq: i, at: "x", costUsd: i }));
    expect(thinCostPoints(points(5)).map((p) => p.seq)).toEqual([0, 2, 4]);
    expect(thinCostPoints(points(6)).map((p) => p.seq)).toEqual([0, 2, 4, 5]);
  });
});
