// What a pod's tool policy says of one tool call: allow, deny, or ask a person.
// Pure: the hook adapters call it with the pod's state before the agent runs the tool.
import type { ToolRule } from "../events/agent-events";
import { ASK_MINUTES } from "../events/agent-events";
import { INPUT_CUT_MARK, type AgentKind, type ToolAction } from "../vocabulary";
import type { PodState, ToolPolicy } from "./pod-state";
import { alternatives, globMatches, mayMatchUnder } from "./tool-paths";
import { budgetHold } from "./reduce-budgets";
import { callSubject, type CallSubject, type ViewSubject } from "./tool-policy-subject";

export { callSubject, stableJson, toolSubject, type CallSubject } from "./tool-policy-subject";

export function matchesPattern(pattern: string, text: string): boolean {
  return alternatives(pattern).some((alt) => globMatches(alt, text));
}

/** Escapes a literal text into a pattern that matches exactly it ("always allow this"). */
export function literalPattern(text: string): string {
  return text.replace(/[\\*?|]/g, (c) => `\\${c}`);
}

/**
 * Deny and ask rules match when the line or any form of its commands (or either form of a path)
 * matches: `cd x && sudo -u root git push` is a `git push`; a Bash line that runs what cannot be
 * known (`$cmd`, `eval "$x"`) matches them all. An allow rule admits a Bash line only when it is
 * plain and every one of its commands matches as written: allowing `git status` allows neither
 * `git status && git push --force`, nor `/tmp/x/git status`, nor `GIT_DIR=x git status`. A command
 * that redirects to a file matches only an alternative that writes a redirection (`npm test > *`).
 * `outside`: none of the forms match.
 */
export function ruleMatches(rule: ToolRule, tool: string, subject: CallSubject): boolean {
  if (!namesTool(rule, tool, subject)) return false;
  if (rule.input === undefined) return true;
  if (rule.action !== "allow") return subject.unknown || subject.each.some((v) => viewMatches(rule, v));
  // An allow admits a call of several files (a patch) only when it admits each of them.
  return subject.each.length > 0 && subject.each.every((v) => viewMatches(rule, v));
}

/**
 * A rule names a call's tool by the agent's own name (`Bash`, `run_shell_command`), or by a
 * common tool the call is (`shell`, tool-vocabulary.ts). An allow by common name must name every
 * common tool the call is: allowing `edit` does not allow a patch that also creates a file.
 */
function namesTool(rule: ToolRule, tool: string, subject: CallSubject): boolean {
  if (matchesPattern(rule.tool, tool)) return true;
  const named = subject.common.filter((c) => matchesPattern(rule.tool, c));
  return named.length > 0 && (rule.action !== "allow" || named.length === subject.common.length);
}

function viewMatches(rule: ToolRule, subject: ViewSubject): boolean {
  const pattern = rule.input!;
  const forms = [subject.whole, ...subject.parts];
  if (rule.action !== "allow") {
    if (subject.unknown) return true;
    if (rule.outside) return !forms.some((f) => matchesPattern(pattern, f));
    const below = subject.under !== undefined && mayMatchUnder(pattern, subject.under);
    return below || forms.some((f) => matchesPattern(pattern, f));
  }
  if (subject.plain === null) return false;
  if (rule.outside) return !forms.some((f) => matchesPattern(pattern, f));
  if (!subject.shell) return forms.some((f) => matchesPattern(pattern, f));
  const redirecting = alternatives(pattern).filter((a) => /[<>]/.test(a));
  // A line with no command (empty, a comment) runs nothing a rule names.
  return (
    subject.plain.length > 0 &&
    subject.plain.every((c) =>
      c.redirected ? redirecting.some((a) => globMatches(a, c.text)) : matchesPattern(pattern, c.text),
    )
  );
}

/** `scope: "budget"`: a call that would be allowed asks a person, because a crossed budget holds the agent's tools (`budgetId` names it). */
export type ToolVerdict = {
  action: ToolAction;
  scope: "session" | "agent" | "pod" | "none" | "budget";
  ruleId?: string;
  budgetId?: string;
  subject: string;
};

/**
 * Session allows first (only the agent's own session's), then the agent's rules, then the pod's;
 * the first match decides; none allows. `cwd`: the folder the call runs in (the hook's own),
 * else the session's. `agent`: whose tool names and inputs these are (tool-vocabulary.ts).
 */
export function evaluateToolCall(
  s: PodState,
  agentId: string,
  sessionId: string | null,
  tool: string,
  input: unknown,
  cwd?: string | null,
  agent: AgentKind = "claude-code",
): ToolVerdict {
  const verdict = evaluateRules(s, agentId, sessionId, tool, input, cwd, agent);
  const hold = verdict.action === "allow" ? budgetHold(s, agentId) : null;
  return hold
    ? { action: "ask", scope: "budget", budgetId: hold.budgetId, subject: verdict.subject }
    : verdict;
}

function evaluateRules(
  s: PodState,
  agentId: string,
  sessionId: string | null,
  tool: string,
  input: unknown,
  cwd: string | null | undefined,
  agent: AgentKind,
): ToolVerdict {
  const session = sessionId && Object.hasOwn(s.sessions, sessionId) ? s.sessions[sessionId]! : null;
  const mine = session?.agentId === agentId ? session : null;
  const subject = callSubject(tool, input, cwd ?? mine?.cwd ?? null, agent);
  const allows =
    mine && Object.hasOwn(s.sessionAllows, mine.sessionId) ? s.sessionAllows[mine.sessionId]! : [];
  if (subject.plain !== null && allows.some((a) => a.tool === tool && a.subject === subject.key))
    return { action: "allow", scope: "session", subject: subject.whole };
  const agentPolicy = Object.hasOwn(s.policies.agents, agentId) ? s.policies.agents[agentId] : undefined;
  for (const [scope, policy] of [
    ["agent", agentPolicy],
    ["pod", s.policies.pod],
  ] as const) {
    const rule = policy?.rules.find((r) => ruleMatches(r, tool, subject));
    if (rule) return { action: rule.action, scope, ruleId: rule.id, subject: subject.whole };
  }
  return { action: "allow", scope: "none", subject: subject.whole };
}

/** The agent's setting, else the pod's, else the default. */
function pick<K extends "ask" | "unreachable" | "idleHold">(
  s: PodState,
  agentId: string,
  key: K,
): ToolPolicy[K] {
  const mine = Object.hasOwn(s.policies.agents, agentId) ? s.policies.agents[agentId] : undefined;
  return mine?.[key] ?? s.policies.pod?.[key] ?? null;
}
export const askSettings = (s: PodState, agentId: string) =>
  pick(s, agentId, "ask") ?? { minutes: ASK_MINUTES.default, then: "deny" as const };
export const unreachableRule = (s: PodState, agentId: string) => pick(s, agentId, "unreachable") ?? "open";
/** Seconds the agent's Stop waits for a person's Resume; 0: it is let through at once (the default). */
export const idleHoldSeconds = (s: PodState, agentId: string): number => pick(s, agentId, "idleHold") ?? 0;

/**
 * Whether a held call's stored input shows all that would run: it parses, and nothing in it holds
 * a cut mark — not the command, path or URL, nor a Write's content. A call that is not whole may
 * be denied, never allowed: the person could not read it to its end.
 */
export function inputIsWhole(_tool: string, inputText: string): boolean {
  return parseHeldInput(inputText) !== undefined && !inputText.includes(INPUT_CUT_MARK.slice(1));
}

/** A held call's stored input, parsed; undefined when it does not parse (the hook route cut a long one). */
export function parseHeldInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
