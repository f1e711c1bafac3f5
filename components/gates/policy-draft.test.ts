import { describe, expect, it } from "vitest";
import { ZAgentPolicySet } from "@/server/domain/events/agent-events";
import {
  bodyOf,
  draftOf,
  moveRule,
  newRuleId,
  PRESETS,
  validateDraft,
  type PolicyDraft,
  type RuleDraft,
} from "./policy-draft";

const rule = (over: Partial<RuleDraft> = {}): RuleDraft => ({
  id: "r1",
  tool: "Bash",
  input: "git push*",
  outside: false,
  action: "ask",
  ...over,
});
const draft = (over: Partial<PolicyDraft> = {}): PolicyDraft => ({
  ...draftOf(null, true),
  rules: [rule()],
  ...over,
});
const schemaAccepts = (d: PolicyDraft, agentId?: string) =>
  ZAgentPolicySet.shape.body.safeParse(bodyOf(d, agentId)).success;

describe("the policy editor's draft", () => {
  const cases: [string, PolicyDraft][] = [
    ["a plain rule", draft()],
    ["presets", draft({ rules: PRESETS.map((p, i) => ({ ...p.rule, id: `p${i}` })) })],
    ["no rules", draft({ rules: [] })],
    ["an empty tool", draft({ rules: [rule({ tool: "  " })] })],
    ["a long tool", draft({ rules: [rule({ tool: "x".repeat(501) })] })],
    ["a long input", draft({ rules: [rule({ input: "x".repeat(1001) })] })],
    ["outside without input", draft({ rules: [rule({ input: "", outside: true })] })],
    ["101 rules", draft({ rules: Array.from({ length: 101 }, (_, i) => rule({ id: `r${i}` })) })],
    ["ask 0 minutes", draft({ ask: "set", askMinutes: "0" })],
    ["hold when idle 300 s", draft({ idleHold: "300" })],
    ["hold when idle off", draft({ idleHold: "0" })],
    ["hold when idle past the cap", draft({ idleHold: "521" })],
    ["hold when idle not a number", draft({ idleHold: "5 min" })],
    ["ask 1441 minutes", draft({ ask: "set", askMinutes: "1441" })],
    ["ask 2.5 minutes", draft({ ask: "set", askMinutes: "2.5" })],
    ["ask 1440 minutes then allow", draft({ ask: "set", askMinutes: "1440", askThen: "allow" })],
    ["closed when unreachable", draft({ unreachable: "closed" })],
  ];
  it.each(cases)("agrees with the event schema: %s", (_name, d) => {
    expect(Object.keys(validateDraft(d)).length === 0).toBe(schemaAccepts(d));
  });

  it("round-trips a stored policy, and leaves out what the agent inherits", () => {
    const stored = {
      seq: 1,
      at: "",
      by: "ada",
      rules: [{ id: "a", tool: "mcp__*", outside: false, action: "ask" as const }],
      ask: { minutes: 2, then: "allow" as const },
      unreachable: "closed" as const,
    };
    expect(bodyOf(draftOf(stored, false), undefined)).toEqual({
      rules: [{ id: "a", tool: "mcp__*", outside: false, action: "ask" }],
      ask: { minutes: 2, then: "allow" },
      unreachable: "closed",
      recordPrompts: false,
    });
    expect(bodyOf(draftOf(null, true), "impl-1")).toEqual({ agentId: "impl-1", rules: [] });
  });

  it("moves rules (first match wins) and names new ones afresh", () => {
    const rules = [rule({ id: "a" }), rule({ id: "b" }), rule({ id: "rule-3" })];
    expect(moveRule(rules, 1, -1).map((r) => r.id)).toEqual(["b", "a", "rule-3"]);
    expect(moveRule(rules, 0, -1)).toBe(rules);
    expect(newRuleId(rules)).toBe("rule-4");
  });
});

describe("hold when idle in the editor", () => {
  it("a saved policy keeps its idleHold: the editor's draft carries it back into the body", () => {
    const saved = { at: "", seq: 1, rules: [], ask: null, unreachable: null, idleHold: 120, by: "ana" };
    expect(bodyOf(draftOf(saved, true), "claude")).toMatchObject({ idleHold: 120 });
    expect(bodyOf(draftOf(null, true), "claude")).not.toHaveProperty("idleHold");
  });
});
