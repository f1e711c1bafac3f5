// Budgets that act, in the domain: who sets them, the server's report checked against
// the meters once per round, the inbox item, the hold on tools, the pause; an agent's own report.
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { armedBudgets, budgetHold, budgetItemId, MAX_BUDGET_LOG, MAX_BUDGETS } from "./reduce-budgets";
import { evaluateToolCall } from "./tool-policy";

function pod(): Tape {
  const t = Tape.team();
  t.add("role.assigned", "admin", { memberId: "orch", role: "cost_controller" });
  t.add("pod.scope_agreed", "chair-1", { scope: "s", successCriteria: ["c"] });
  t.add("pod.started", "chair-1");
  return t;
}
const cost = (extra: object = {}) => ({
  budgetId: "b-cost",
  agentId: "impl",
  metric: "cost_usd",
  limit: 5,
  then: "notify",
  ...extra,
});
/** The server's report closes the round armed by the budget's latest budget.set: its seq. */
const roundOf = (t: Tape, budgetId: string) => t.state.budgetLimits[budgetId]?.seq ?? 1;
const report = (t: Tape, body: object) =>
  t.add("budget.exceeded", "podwatch", {
    budget: "b-cost",
    limit: 5,
    used: 5.2,
    metric: "cost_usd",
    agentId: "impl",
    then: "notify",
    round: roundOf(t, "b-cost"),
    ...body,
  });

describe("budget.set", () => {
  it("is set by a human approver, the chair, the cost controller or admin automation; not by a viewer or another agent", () => {
    const t = pod();
    for (const [actor, id] of [
      ["ana", "b1"],
      ["chair-1", "b2"],
      ["orch", "b3"],
      ["admin", "b4"],
    ])
      t.add("budget.set", actor!, cost({ budgetId: id }));
    expect(Object.keys(t.state.budgetLimits)).toEqual(["b1", "b2", "b3", "b4"]);
    t.refuses("budget_authority", "budget.set", "vic", cost());
    t.refuses("budget_authority", "budget.set", "impl", cost());
    t.refuses("budget_authority", "budget.set", "rev", cost());
  });

  it("is per pod or per agent: a person or a stranger is no budget's agent", () => {
    const t = pod();
    t.refuses("not_an_agent", "budget.set", "ana", cost({ agentId: "vic" }));
    t.refuses("unknown_member", "budget.set", "ana", cost({ agentId: "nobody" }));
    expect(
      t.add("budget.set", "ana", { budgetId: "all", metric: "tokens", limit: 100 }).budgetLimits.all,
    ).toMatchObject({ agentId: null, then: "notify", exceeded: null, by: "ana" });
  });

  it("removing needs the budget to exist; a pod keeps a bounded number", () => {
    const t = pod();
    t.refuses("unknown_budget", "budget.set", "ana", cost({ limit: null }));
    for (let i = 0; i < MAX_BUDGETS; i++) t.add("budget.set", "admin", cost({ budgetId: `b${i}` }));
    t.refuses("too_many_budgets", "budget.set", "ana", cost({ budgetId: "one-more" }));
    t.add("budget.set", "ana", cost({ budgetId: "b0", limit: 9 })); // changing one is no new one
    t.add("budget.set", "ana", cost({ budgetId: "b1", limit: null }));
    expect(Object.keys(t.state.budgetLimits)).toHaveLength(MAX_BUDGETS - 1);
  });
});

describe("the server's budget.exceeded", () => {
  it("is refused until the meters cross the limit, and when it does not match the budget as set", () => {
    const t = pod();
    t.add("budget.set", "ana", cost());
    t.add("usage.reported", "impl", { model: "m", costUsd: 4.5 });
    t.refuses("budget_not_crossed", "budget.exceeded", "podwatch", {
      round: roundOf(t, "b-cost"),
      budget: "b-cost",
      limit: 5,
      used: 5.2,
      metric: "cost_usd",
      agentId: "impl",
      then: "notify",
    });
    t.add("usage.reported", "impl", { model: "m", costUsd: 0.7 });
    t.refuses("unknown_budget", "budget.exceeded", "podwatch", {
      round: roundOf(t, "nope"),
      budget: "nope",
      limit: 5,
      used: 5.2,
      metric: "cost_usd",
      agentId: "impl",
      then: "notify",
    });
    for (const wrong of [
      { limit: 4 },
      { metric: "tokens" },
      { agentId: "rev" },
      { agentId: undefined },
      { then: "pause_pod" },
      { round: 999 },
      { round: undefined },
    ]) {
      t.refuses("budget_mismatch", "budget.exceeded", "podwatch", {
        round: roundOf(t, "b-cost"),
        budget: "b-cost",
        limit: 5,
        used: 5.2,
        metric: "cost_usd",
        agentId: "impl",
        then: "notify",
        ...wrong,
      });
    }
  });

  it("marks the round, opens the inbox item with the numbers, once; setting the budget again re-arms it and clears the item", () => {
    const t = pod();
    t.add("budget.set", "ana", cost());
    t.add("usage.reported", "impl", { model: "m", costUsd: 5.2 });
    const s = report(t, {});
    expect(s.budgetLimits["b-cost"]!.exceeded).toEqual({ seq: s.seq, at: expect.any(String), used: 5.2 });
    expect(s.inbox[budgetItemId("b-cost")]).toMatchObject({
      kind: "budget",
      subject: { kind: "budget", id: "b-cost" },
      title: "Budget b-cost of impl crossed: 5.20 of 5 USD",
      text: "Agent impl",
    });
    expect(armedBudgets(s)).toEqual([]);
    expect(s.status).toBe("active"); // notify does nothing more
    t.refuses("budget_already_exceeded", "budget.exceeded", "podwatch", {
      round: roundOf(t, "b-cost"),
      budget: "b-cost",
      limit: 5,
      used: 5.3,
      metric: "cost_usd",
      agentId: "impl",
      then: "notify",
    });
    // Raised: a new round, nothing in the inbox, crossing again is reported again.
    const raised = t.add("budget.set", "ana", cost({ limit: 6 }));
    expect([
      raised.budgetLimits["b-cost"]!.exceeded,
      raised.inbox[budgetItemId("b-cost")],
      armedBudgets(raised).length,
    ]).toEqual([null, undefined, 1]);
    t.add("usage.reported", "impl", { model: "m", costUsd: 1 });
    expect(report(t, { limit: 6, used: 6.2 }).inbox[budgetItemId("b-cost")]!.title).toBe(
      "Budget b-cost of impl crossed: 6.20 of 6 USD",
    );
    // Removed: the item goes with it.
    expect(t.add("budget.set", "ana", cost({ limit: null })).inbox[budgetItemId("b-cost")]).toBeUndefined();
  });

  it("hold_tools: the agent's allowed calls ask a person (a pod-wide budget holds every agent); others are untouched", () => {
    const t = pod();
    t.add("budget.set", "ana", cost({ then: "hold_tools" }));
    t.add("usage.reported", "impl", { model: "m", costUsd: 6 });
    expect(evaluateToolCall(t.state, "impl", null, "Bash", { command: "ls" })).toMatchObject({
      action: "allow",
      scope: "none",
    }); // not yet reported
    report(t, { then: "hold_tools", used: 6 });
    expect(budgetHold(t.state, "impl")?.budgetId).toBe("b-cost");
    expect(evaluateToolCall(t.state, "impl", null, "Bash", { command: "ls" })).toMatchObject({
      action: "ask",
      scope: "budget",
      budgetId: "b-cost",
    });
    expect(evaluateToolCall(t.state, "rev", null, "Bash", { command: "ls" })).toMatchObject({
      action: "allow",
      scope: "none",
    });
    // A rule's deny stays a deny: the hold only turns allows into asks.
    t.add("agent.policy.set", "admin", {
      agentId: "impl",
      rules: [{ id: "no-rm", tool: "Bash", input: "rm *", action: "deny" }],
    });
    expect(evaluateToolCall(t.state, "impl", null, "Bash", { command: "rm x" })).toMatchObject({
      action: "deny",
      ruleId: "no-rm",
    });
    t.add("budget.set", "ana", { budgetId: "pod-calls", metric: "tool_calls", limit: 1, then: "hold_tools" });
    t.add("tool.call", "rev", { tool: "Read", phase: "started", toolUseId: "u1" });
    t.add("budget.exceeded", "podwatch", {
      round: roundOf(t, "pod-calls"),
      budget: "pod-calls",
      limit: 1,
      used: 1,
      metric: "tool_calls",
      then: "hold_tools",
    });
    expect(evaluateToolCall(t.state, "rev", null, "Bash", { command: "ls" })).toMatchObject({
      action: "ask",
      scope: "budget",
      budgetId: "pod-calls",
    });
    // Re-set, the hold is lifted for that budget.
    t.add("budget.set", "ana", cost({ then: "hold_tools", limit: 100 }));
    expect(budgetHold(t.state, "impl")?.budgetId).toBe("pod-calls");
  });

  it("pause_pod pauses an active pod (and its active time stops)", () => {
    const t = pod();
    t.add("budget.set", "ana", {
      budgetId: "calls",
      agentId: "impl",
      metric: "tool_calls",
      limit: 2,
      then: "pause_pod",
    });
    t.add("tool.call", "impl", { tool: "Read", phase: "started", toolUseId: "u1" });
    t.add("tool.call", "impl", { tool: "Read", phase: "started", toolUseId: "u2" });
    const s = t.add("budget.exceeded", "podwatch", {
      round: roundOf(t, "calls"),
      budget: "calls",
      limit: 2,
      used: 2,
      metric: "tool_calls",
      agentId: "impl",
      then: "pause_pod",
    });
    expect(s.status).toBe("paused");
    expect(s.meters.activeSince).toBeNull();
    expect(s.inbox["budget:calls"]!.title).toBe(
      "Budget calls of impl crossed: 2 of 2 tool calls; the pod is paused",
    );
  });

  it("an agent's own report (a dispatcher's) is logged as said and does nothing else", () => {
    const t = pod();
    t.add("budget.set", "ana", cost({ then: "pause_pod" }));
    const s = t.add("budget.exceeded", "impl", { budget: "b-cost", limit: 5, used: 99 });
    expect(s.budgets).toEqual([
      expect.objectContaining({ budget: "b-cost", limit: 5, used: 99, by: "impl" }),
    ]);
    expect([s.status, s.budgetLimits["b-cost"]!.exceeded, s.inbox["budget:b-cost"]]).toEqual([
      "active",
      null,
      undefined,
    ]);
    // It may not dress up as the server's: those fields name a set budget and its round.
    for (const copy of [{ metric: "cost_usd" }, { agentId: "impl" }, { then: "pause_pod" }, { round: 1 }]) {
      t.refuses("system_fields", "budget.exceeded", "impl", {
        budget: "b-cost",
        limit: 5,
        used: 99,
        ...copy,
      });
    }
  });

  it("the log of reports keeps the latest MAX_BUDGET_LOG (the tape keeps every one)", () => {
    const t = pod();
    for (let i = 0; i < MAX_BUDGET_LOG + 5; i++)
      t.add("budget.exceeded", "impl", { budget: "own", limit: 1, used: i });
    expect(t.state.budgets).toHaveLength(MAX_BUDGET_LOG);
    expect(t.state.budgets.at(-1)!.used).toBe(MAX_BUDGET_LOG + 4);
  });
});

describe("what an agent may do to budgets (the one a budget holds must not lift it)", () => {
  it("the chair or cost controller adds budgets and lowers limits; raising, removing, changing or re-arming a crossed one takes a person", () => {
    const t = pod();
    t.add("budget.set", "orch", cost());
    t.add("budget.set", "orch", cost({ limit: 4 }));
    t.add("budget.set", "chair-1", cost({ limit: 4 }));
    for (const change of [
      { limit: 4.5 },
      { limit: null },
      { then: "hold_tools" },
      { metric: "tokens" },
      { agentId: "rev" },
      { agentId: undefined },
    ]) {
      t.refuses("budget_needs_person", "budget.set", "orch", cost({ limit: 4, ...change }));
    }
    t.add("usage.reported", "impl", { model: "m", costUsd: 4 });
    report(t, { limit: 4, used: 4 });
    t.refuses("budget_needs_person", "budget.set", "orch", cost({ limit: 3 })); // re-arming a crossed one, even lower
    expect(t.add("budget.set", "ana", cost({ limit: 10 })).budgetLimits["b-cost"]).toMatchObject({
      limit: 10,
      exceeded: null,
    });
    t.add("budget.set", "admin", cost({ limit: null }));
  });

  it("while a crossed pause_pod budget stands, only a person resumes (or starts) the pod", () => {
    const t = pod();
    t.add("budget.set", "ana", cost({ then: "pause_pod" }));
    t.add("usage.reported", "impl", { model: "m", costUsd: 6 });
    expect(report(t, { then: "pause_pod", used: 6 }).status).toBe("paused");
    t.refuses("budget_paused", "pod.resumed", "chair-1");
    t.refuses("budget_paused", "pod.resumed", "orch");
    expect(t.add("pod.resumed", "ana").status).toBe("active");
  });
});
