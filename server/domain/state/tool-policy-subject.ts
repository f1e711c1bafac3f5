// What a tool policy's rules are matched against: a call's subject, for any agent. The call is
// first seen in the common vocabulary (tool-vocabulary.ts), as the Claude Code calls it amounts
// to; each is read as before (a Bash line by bash-view.ts, a path by tool-paths.ts). Pure.
import type { AgentKind } from "../vocabulary";
import { bashView, type PlainCommand } from "./bash-view";
import { pathSubject } from "./tool-paths";
import { commonCall, type CommonTool } from "./tool-vocabulary";

const FIELD: Record<string, string> = {
  Bash: "command",
  WebFetch: "url",
  WebSearch: "query",
  Task: "description",
};

/**
 * What a rule's `input` pattern is matched against: the command, the path (relative to `cwd`
 * when inside it, its `.`/`..` resolved so `src/../etc` is not `src/…`), the URL; else the
 * input as JSON with sorted keys.
 */
export function toolSubject(tool: string, input: unknown, cwd?: string | null): string {
  const path = pathSubject(tool, input, cwd);
  if (path) return path.whole;
  const obj = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  const field = FIELD[tool];
  if (field && typeof obj[field] === "string") return obj[field];
  return stableJson(input);
}

export function stableJson(value: unknown): string {
  return (
    JSON.stringify(value, (_k, v: unknown) =>
      v && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
          )
        : v,
    ) ?? "null"
  );
}

/**
 * One Claude Code-shaped call's subject. `parts`: the forms deny and ask rules see — a Bash line's
 * commands (bash-view.ts), a path's forms (relative to the cwd when inside it, and absolute, so
 * neither `/etc/*` nor `src/*` is dodged by where the session says it is), else the one subject.
 * `plain`: a Bash line's commands as an allow rule sees them, null when it is not plain programs
 * run plainly or a search no allow rule may cover (`why` says what); `unknown`: a Bash line runs
 * something that cannot be known from its text. `key`: how a remembered "allow for this session"
 * names the call: the exact line, the absolute path, else the subject. `under`: the folder a
 * search (Grep, Glob, LS) reads below (tool-paths.ts). `shell`: a Bash line. `exact`: the texts
 * an "always allow this" names, each as a literal pattern.
 */
export type ViewSubject = {
  key: string;
  whole: string;
  parts: string[];
  plain: PlainCommand[] | null;
  why: string | null;
  unknown: boolean;
  absolute: string | null;
  under?: string;
  shell: boolean;
  exact: string[];
};

/**
 * A call's subject: its views' together (a patch of two files is both files). `common`: the common
 * tools it is; `each`: its views' subjects, none when the call is opaque (then `unknown`).
 */
export type CallSubject = ViewSubject & { common: CommonTool[]; each: ViewSubject[] };

export function callSubject(
  tool: string,
  input: unknown,
  cwd?: string | null,
  agent: AgentKind = "claude-code",
): CallSubject {
  const call = commonCall(agent, tool, input);
  const each = call.views.map((v) => viewSubject(v.tool, v.input, cwd));
  if (each.length === 1 && !call.opaque) return { ...each[0]!, common: call.common, each };
  const whole = call.opaque ? stableJson(input) : each.map((v) => v.whole).join(", ");
  const plain = each.every((v) => v.plain !== null) ? each.flatMap((v) => v.plain!) : null;
  return {
    key: call.opaque ? whole : each.map((v) => v.key).join("\n"),
    whole,
    parts: call.opaque ? [whole] : each.flatMap((v) => v.parts),
    plain: call.opaque ? null : plain,
    why: call.opaque
      ? "a call whose subject cannot be read from its input"
      : (each.find((v) => v.why)?.why ?? null),
    unknown: call.opaque || each.some((v) => v.unknown),
    absolute: null,
    shell: false,
    exact: each.flatMap((v) => v.exact),
    common: call.common,
    each,
  };
}

function viewSubject(tool: string, input: unknown, cwd?: string | null): ViewSubject {
  const whole = toolSubject(tool, input, cwd);
  if (tool === "Bash") {
    const view = bashView(whole);
    const exact = view.plain ? [...new Set(view.plain.map((c) => c.text))] : [];
    const { forms: parts, plain, why, unknown } = view;
    return {
      key: whole,
      whole: whole.trim(),
      parts,
      plain,
      why,
      unknown,
      absolute: null,
      shell: true,
      exact,
    };
  }
  const plain = [{ text: whole, redirected: false }];
  const path = pathSubject(tool, input, cwd);
  if (path) {
    const { key, forms, absolute, under, risky } = path;
    const why = risky ? "a search that may leave its folder" : null;
    return {
      key,
      whole,
      parts: forms,
      plain: risky ? null : plain,
      why,
      unknown: false,
      absolute,
      ...(under ? { under } : {}),
      shell: false,
      exact: [absolute],
    };
  }
  const rest = { why: null, unknown: false, absolute: null, shell: false, exact: [whole] };
  return { key: whole, whole, parts: [whole], plain, ...rest };
}
