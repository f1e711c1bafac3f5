// A tool policy as the editor holds it, and back: the rules in order (first match wins), the
// ask deadline and its default, the unreachable rule, how long a Stop waits for a person's Resume
// (idleHold) and (pod only) whether prompt text goes on the tape. validateDraft mirrors the agent.policy.set schema (policy-draft.test.ts keeps
// them agreeing), so a person sees what to fix before anything is sent. Pure.
import type { PodState, ToolPolicy } from "@/server/domain/state/pod-state";
import type { ToolAction } from "@/server/wire/vocabulary";

export const LIMITS = {
  rules: 100,
  tool: 500,
  input: 1000,
  minMinutes: 1,
  maxMinutes: 1440,
  defaultMinutes: 5,
  /** The longest a Stop may wait for a Resume, in seconds (agent.policy.set's idleHold). */
  maxIdleHold: 520,
} as const;

export type RuleDraft = { id: string; tool: string; input: string; outside: boolean; action: ToolAction };
/** `inherit`: the agent follows the pod's setting (the pod: the default, 5 minutes then deny; open). */
export type PolicyDraft = {
  rules: RuleDraft[];
  ask: "inherit" | "set";
  askMinutes: string;
  askThen: "allow" | "deny";
  unreachable: "inherit" | "open" | "closed";
  /** Seconds a Stop waits for a person's Resume ("0": it stops at once), or "inherit". */
  idleHold: string;
  recordPrompts: boolean;
};

export type PolicyBody = {
  agentId?: string;
  rules: { id: string; tool: string; input?: string; outside: boolean; action: ToolAction }[];
  ask?: { minutes: number; then: "allow" | "deny" };
  unreachable?: "open" | "closed";
  idleHold?: number;
  recordPrompts?: boolean;
};

export function draftOf(policy: ToolPolicy | null | undefined, recordPrompts: boolean): PolicyDraft {
  return {
    rules: (policy?.rules ?? []).map((r) => ({
      id: r.id,
      tool: r.tool,
      input: r.input ?? "",
      outside: r.outside,
      action: r.action,
    })),
    ask: policy?.ask ? "set" : "inherit",
    askMinutes: String(policy?.ask?.minutes ?? LIMITS.defaultMinutes),
    askThen: policy?.ask?.then ?? "deny",
    unreachable: policy?.unreachable ?? "inherit",
    idleHold: policy?.idleHold == null ? "inherit" : String(policy.idleHold),
    recordPrompts,
  };
}

/** The policy's body for `agentId` (undefined: the pod's). */
export function bodyOf(d: PolicyDraft, agentId: string | undefined): PolicyBody {
  return {
    ...(agentId !== undefined ? { agentId } : {}),
    rules: d.rules.map((r) => ({
      id: r.id,
      tool: r.tool.trim(),
      ...(r.input.trim() ? { input: r.input.trim() } : {}),
      outside: r.outside,
      action: r.action,
    })),
    ...(d.ask === "set" ? { ask: { minutes: Number(d.askMinutes), then: d.askThen } } : {}),
    ...(d.unreachable !== "inherit" ? { unreachable: d.unreachable } : {}),
    ...(d.idleHold !== "inherit" ? { idleHold: Number(d.idleHold) } : {}),
    ...(agentId === undefined ? { recordPrompts: d.recordPrompts } : {}),
  };
}

/** Field → what is wrong ("rules.2.tool", "askMinutes", "rules"); empty when the draft can be saved. */
export function validateDraft(d: PolicyDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  if (d.rules.length > LIMITS.rules) errors.rules = `at most ${LIMITS.rules} rules`;
  d.rules.forEach((r, i) => {
    const tool = r.tool.trim();
    const input = r.input.trim();
    if (!tool)
      errors[`rules.${i}.tool`] =
        "name the tool (shell, read, write, edit, or a pattern such as Bash or mcp__*)";
    else if (tool.length > LIMITS.tool)
      errors[`rules.${i}.tool`] = `keep the tool pattern under ${LIMITS.tool} characters`;
    if (input.length > LIMITS.input)
      errors[`rules.${i}.input`] = `keep the input pattern under ${LIMITS.input} characters`;
    if (r.outside && !input) errors[`rules.${i}.input`] = "“outside” needs an input pattern";
  });
  if (d.ask === "set") {
    const m = Number(d.askMinutes);
    if (!/^\d+$/.test(d.askMinutes.trim()) || m < LIMITS.minMinutes || m > LIMITS.maxMinutes)
      errors.askMinutes = `a whole number of minutes, ${LIMITS.minMinutes} to ${LIMITS.maxMinutes}`;
  }
  if (d.idleHold !== "inherit") {
    const s = Number(d.idleHold);
    if (!/^\d+$/.test(d.idleHold.trim()) || s > LIMITS.maxIdleHold)
      errors.idleHold = `a whole number of seconds, 0 to ${LIMITS.maxIdleHold}`;
  }
  return errors;
}

/** A rule id not yet used in the draft (ids are kept across edits, so the tape can name the rule that decided). */
export function newRuleId(rules: RuleDraft[]): string {
  const used = new Set(rules.map((r) => r.id));
  let n = rules.length + 1;
  while (used.has(`rule-${n}`)) n++;
  return `rule-${n}`;
}

/** The rules with the one at `index` moved up (-1) or down (+1); unchanged at the ends. */
export function moveRule(rules: RuleDraft[], index: number, by: -1 | 1): RuleDraft[] {
  const to = index + by;
  if (to < 0 || to >= rules.length) return rules;
  const next = [...rules];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** One-click examples: the policies people ask for most, in common tool names (every agent's). */
export const PRESETS: { label: string; rule: Omit<RuleDraft, "id"> }[] = [
  {
    label: "Ask before git push or rm -rf",
    rule: { tool: "shell", input: "git push*|rm -rf*", outside: false, action: "ask" },
  },
  {
    label: "Ask before writing outside src/",
    rule: { tool: "write|edit", input: "src/*", outside: true, action: "ask" },
  },
  { label: "Ask before any MCP tool", rule: { tool: "mcp__*", input: "", outside: false, action: "ask" } },
];

export const policiesOf = (s: Pick<PodState, "policies">, agentId: string | undefined) =>
  agentId === undefined ? s.policies.pod : (s.policies.agents[agentId] ?? null);
