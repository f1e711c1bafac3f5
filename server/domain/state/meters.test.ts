// The meters budgets count: tool calls and session wall time per agent, the pod's
// active time, and budgetUse over them and the usage reports — on hand-made tapes.
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { activeMsAt, budgetUse, IDLE_GAP_MS, uncountedModels } from "./meters";

const at = (mmss: string) => `2026-11-22T10:${mmss}.000Z`;
const ms = (mmss: string) => Date.parse(at(mmss));

function started(): Tape {
  const t = Tape.team();
  t.now = at("00:00");
  t.add("pod.scope_agreed", "chair-1", { scope: "s", successCriteria: ["c"] });
  t.add("pod.started", "chair-1");
  return t;
}

describe("trackMeters", () => {
  it("counts each agent's started and failed tool calls, inside a session or not", () => {
    const t = started();
    t.add("tool.call", "impl", { tool: "Bash", phase: "started", toolUseId: "u1" }, { sessionId: "s1" });
    t.add("tool.call", "impl", { tool: "Bash", phase: "failed", toolUseId: "u1" }, { sessionId: "s1" });
    t.add("tool.call", "impl", { tool: "Read", phase: "started", toolUseId: "u2" });
    t.add("tool.call", "rev", { tool: "Read", phase: "started", toolUseId: "u3" }, { sessionId: "s2" });
    t.add("tool.call", "rev", { tool: "Read", phase: "succeeded", toolUseId: "u3" }, { sessionId: "s2" });
    expect(t.state.meters.agents).toMatchObject({
      impl: { toolCalls: 2, failedToolCalls: 1, sessionMs: 0 },
      rev: { toolCalls: 1, failedToolCalls: 0, sessionMs: 0 },
    });
  });

  it("a call a gate denied did not run: it is no tool call", () => {
    const t = started();
    t.add(
      "tool.call",
      "impl",
      { tool: "Bash", phase: "started", toolUseId: "u1", gate: { decision: "deny", by: "person" } },
      { sessionId: "s1" },
    );
    t.add(
      "tool.call",
      "impl",
      { tool: "Bash", phase: "started", toolUseId: "u2", gate: { decision: "allow", by: "person" } },
      { sessionId: "s1" },
    );
    expect(t.state.meters.agents.impl!.toolCalls).toBe(1);
  });

  it("adds a session's wall time from event to event, and a stretch once however many untouching events carry the session", () => {
    const t = started();
    t.now = at("01:00");
    t.add("session.started", "impl", { via: "claude-code" }, { sessionId: "s1" });
    t.now = at("02:00");
    t.add("prompt.submitted", "impl", { chars: 3 }, { sessionId: "s1" });
    expect(t.state.meters.agents.impl!.sessionMs).toBe(60_000);
    // A checkpoint from the Stop hook carries the session but is not a session event: it must not count the stretch …
    t.now = at("03:00");
    t.add("checkpoint", "impl", { completed: ["x"], next: [], blocked: [] }, { sessionId: "s1" });
    // … which the next session event counts, once.
    t.now = at("04:00");
    t.add("tool.call", "impl", { tool: "Bash", phase: "started", toolUseId: "u1" }, { sessionId: "s1" });
    expect(t.state.meters.agents.impl!.sessionMs).toBe(180_000); // 01:00 to 04:00, the checkpoint's stretch not twice
    // Wall time is the agent's: another session's events go on counting the same clock.
    t.now = at("05:00");
    t.add("session.started", "impl", { via: "sdk" }, { sessionId: "s2" });
    t.now = at("05:30");
    t.add("session.ended", "impl", {}, { sessionId: "s2" });
    expect(t.state.meters.agents.impl!.sessionMs).toBe(270_000);
    // A session's end stops the clock: the time until the next session event is not counted.
    t.now = at("40:00");
    t.add("session.started", "impl", { via: "sdk" }, { sessionId: "s3" });
    expect(t.state.meters.agents.impl!.sessionMs).toBe(270_000);
  });

  it("a fresh session id per event (or more sessions than the state keeps) does not reset an agent's wall time", () => {
    const t = started();
    for (let i = 0; i < 30; i++) {
      t.now = new Date(ms("01:00") + i * 60_000).toISOString();
      t.add(
        "tool.call",
        "impl",
        { tool: "Bash", phase: "started", toolUseId: `u${i}` },
        { sessionId: `fresh-${i}` },
      );
    }
    expect(t.state.meters.agents.impl!.sessionMs).toBe(29 * 60_000);
  });

  it("a gap longer than IDLE_GAP_MS counts only IDLE_GAP_MS: the agent was idle", () => {
    const t = started();
    t.now = at("00:00");
    t.add("session.started", "impl", { via: "sdk" }, { sessionId: "s1" });
    t.now = at("50:00");
    t.add("prompt.submitted", "impl", { chars: 1 }, { sessionId: "s1" });
    expect(t.state.meters.agents.impl!.sessionMs).toBe(IDLE_GAP_MS);
  });

  it("keeps the pod's active time across pauses and resumes, and counts the current stretch up to now", () => {
    const t = started();
    expect(t.state.meters).toMatchObject({ activeMs: 0, activeSince: at("00:00") });
    expect(activeMsAt(t.state, ms("00:30"))).toBe(30_000);
    t.now = at("01:00");
    t.add("pod.paused", "chair-1", { reason: "lunch" });
    expect(t.state.meters).toMatchObject({ activeMs: 60_000, activeSince: null });
    expect(activeMsAt(t.state, ms("09:00"))).toBe(60_000);
    t.now = at("10:00");
    t.add("pod.resumed", "chair-1");
    expect(activeMsAt(t.state, ms("10:45"))).toBe(105_000);
    t.now = at("11:00");
    t.add("pod.closed", "chair-1", { reason: "done" });
    expect(t.state.meters).toMatchObject({ activeMs: 120_000, activeSince: null });
  });

  it("a forming pod is not active: no time counts before it starts", () => {
    const t = Tape.team();
    expect(activeMsAt(t.state, ms("30:00"))).toBe(0);
  });
});

describe("budgetUse", () => {
  function used(): Tape {
    const t = started();
    t.add("usage.reported", "impl", {
      model: "opus",
      inputTokens: 1000,
      outputTokens: 200,
      cacheReadTokens: 50_000,
      costUsd: 1.25,
    });
    t.add("usage.reported", "impl", { model: "haiku", inputTokens: 10, outputTokens: 5, costUsd: 0.05 });
    t.add("usage.reported", "rev", {
      model: "opus",
      inputTokens: 300,
      outputTokens: 100,
      cacheWriteTokens: 7,
      costUsd: 0.7,
    });
    t.add("tool.call", "impl", { tool: "Bash", phase: "started", toolUseId: "u1" });
    t.add("tool.call", "orch", { tool: "Bash", phase: "started", toolUseId: "u2" });
    return t;
  }
  const pod = (metric: "tokens" | "cost_usd" | "tool_calls" | "wall_minutes") => ({ agentId: null, metric });
  const of = (agentId: string, metric: "tokens" | "cost_usd" | "tool_calls" | "wall_minutes") => ({
    agentId,
    metric,
  });

  it("tokens are input plus output (cache reads and writes are in the cost), over every model", () => {
    const s = used().state;
    expect(budgetUse(s, of("impl", "tokens"), 0)).toBe(1215);
    expect(budgetUse(s, pod("tokens"), 0)).toBe(1615);
  });

  it("cost is summed over models and agents; tool calls over every agent that made one", () => {
    const s = used().state;
    expect(budgetUse(s, of("impl", "cost_usd"), 0)).toBeCloseTo(1.3, 10);
    expect(budgetUse(s, pod("cost_usd"), 0)).toBeCloseTo(2.0, 10);
    expect(budgetUse(s, of("impl", "tool_calls"), 0)).toBe(1);
    expect(budgetUse(s, pod("tool_calls"), 0)).toBe(2); // orch reported no usage, its call still counts
  });

  it("a model named like a built-in property counts like any other (never NaN)", () => {
    const t = used();
    expect(() =>
      t.add("usage.reported", "impl", { model: "constructor", inputTokens: 5, costUsd: 1 }),
    ).toThrow(/reserved/);
    expect(Number.isFinite(budgetUse(t.state, of("impl", "cost_usd"), 0))).toBe(true);
  });

  it("usage without a cost (a model no price list knows) is never counted as free: a cost budget names it", () => {
    const t = used();
    expect(uncountedModels(t.state, pod("cost_usd"))).toEqual([]);
    t.add("usage.reported", "rev", { model: "mystery-1", inputTokens: 9000, outputTokens: 10 });
    t.add("usage.reported", "rev", { model: "mystery-1", inputTokens: 1 });
    expect(t.state.usage.rev!["mystery-1"]).toMatchObject({ costUsd: 0, reports: 2, unpriced: 2 });
    expect(t.state.usage.rev!.opus).toMatchObject({ unpriced: 0 });
    expect(uncountedModels(t.state, pod("cost_usd"))).toEqual(["mystery-1"]);
    expect(uncountedModels(t.state, of("rev", "cost_usd"))).toEqual(["mystery-1"]);
    expect(uncountedModels(t.state, of("impl", "cost_usd"))).toEqual([]);
    expect(uncountedModels(t.state, pod("tokens"))).toEqual([]); // tokens were counted
  });

  it("an agent with nothing reported uses nothing", () => {
    const s = used().state;
    for (const metric of ["tokens", "cost_usd", "tool_calls", "wall_minutes"] as const)
      expect(budgetUse(s, of("chair-1", metric), ms("30:00"))).toBe(0);
  });

  it("wall minutes: the pod's active time up to now; an agent's session time", () => {
    const t = used();
    t.now = at("01:00");
    t.add("session.started", "impl", { via: "sdk" }, { sessionId: "s1" });
    t.now = at("04:00");
    t.add("prompt.submitted", "impl", { chars: 1 }, { sessionId: "s1" });
    expect(budgetUse(t.state, pod("wall_minutes"), ms("06:00"))).toBe(6);
    expect(budgetUse(t.state, of("impl", "wall_minutes"), ms("06:00"))).toBe(3);
  });
});
