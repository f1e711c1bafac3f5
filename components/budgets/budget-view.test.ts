import { describe, expect, it } from "vitest";
import { ZId } from "@/server/domain/events/seed-formats";
import { amountOf, draftProblems, percentUsed, suggestedLimit, whoseBudget } from "./budget-view";

const draft = {
  budgetId: "impl-cost",
  agentId: "impl",
  metric: "cost_usd" as const,
  limit: "5",
  then: "notify" as const,
};

describe("budget view", () => {
  it("reads amounts with their unit, money to the cent", () => {
    expect(amountOf(5.2, "cost_usd")).toBe("5.20 USD");
    expect(amountOf(5, "cost_usd")).toBe("5.00 USD");
    expect(amountOf(1050, "tokens")).toBe("1050 tokens");
    expect(amountOf(1.234, "wall_minutes")).toBe("1.23 minutes");
    expect([whoseBudget(null), whoseBudget("impl")]).toEqual(["whole pod", "agent impl"]);
  });

  it("fills the bar to the limit and no further", () => {
    expect([percentUsed(0, 5), percentUsed(2.5, 5), percentUsed(9, 5), percentUsed(-1, 5)]).toEqual([
      0, 50, 100, 0,
    ]);
  });

  it("says what is wrong with a draft, per field", () => {
    expect(draftProblems(draft, [], false)).toEqual({});
    expect(draftProblems({ ...draft, budgetId: " " }, [], false).budgetId).toMatch(/name/);
    expect(draftProblems(draft, ["impl-cost"], false).budgetId).toMatch(/exists/);
    expect(draftProblems(draft, ["impl-cost"], true)).toEqual({});
    expect(draftProblems({ ...draft, limit: "" }, [], false).limit).toBe("Set a limit");
    expect(draftProblems({ ...draft, limit: "-2" }, [], false).limit).toMatch(/above 0/);
    expect(draftProblems({ ...draft, limit: "abc" }, [], false).limit).toMatch(/above 0/);
    expect(draftProblems({ ...draft, limit: "1e13" }, [], false).limit).toMatch(/at most/);
    expect(draftProblems({ ...draft, metric: "tokens", limit: "10.5" }, [], false).limit).toMatch(/whole/);
  });

  it("a new budget's name follows the server's id rule, no stricter", () => {
    const names = [
      "impl-cost",
      "team budget",
      "Kosten für März",
      "b/1:2",
      "x".repeat(200),
      "x".repeat(201),
      "a\u0000b",
      "a\nb",
      "a\u202Eb",
      "a\u2028b",
      "constructor",
      "__proto__",
      "toString",
    ];
    for (const name of names) {
      const browser = draftProblems({ ...draft, budgetId: name }, [], false).budgetId === undefined;
      expect([name, browser]).toEqual([name, ZId.safeParse(name).success]);
    }
    expect(draftProblems({ ...draft, budgetId: "constructor" }, [], false).budgetId).toMatch(/reserved/);
    expect(draftProblems({ ...draft, budgetId: "x".repeat(201) }, [], false).budgetId).toMatch(/200/);
  });

  it("editing checks no name: a budget made through the API with a name the form would not suggest can still be saved", () => {
    expect(draftProblems({ ...draft, budgetId: "team budget" }, ["team budget"], true)).toEqual({});
    expect(draftProblems({ ...draft, budgetId: "team budget", limit: "0" }, ["team budget"], true)).toEqual({
      limit: "The limit is a number above 0",
    });
  });

  it("suggests a raised limit above what is used", () => {
    expect(suggestedLimit(5.2, 5, "cost_usd")).toBe(8);
    expect(suggestedLimit(1050, 1000, "tokens")).toBe(1600);
    expect(suggestedLimit(2, 2, "tool_calls")).toBe(3);
  });
});
