// A Bash command line read by a real shell parser (mvdan/sh, its JavaScript build), reduced to
// what a tool policy needs: every simple command anywhere in the line (in pipelines, lists,
// subshells, functions, $(…)), with its words, assignments and redirections, and what the line
// holds that a policy cannot vouch for. The parser stays behind this file; tool-policy.ts and
// bash-view.ts hold the policy's semantics.
import mvdan from "mvdan-sh";

/** A word after quote removal (`value`), or null when the shell would expand it (a parameter, `$(…)`, a glob…). */
export type ShellWord = { value: string | null; source: string };
/** `op`: `>`, `>>`, `<`, `<>`, `>&`, `<&`, `>|`, `<<`, `<<-`, `<<<`, `&>`, `&>>`; `fd` the number before it, if any. */
export type ShellRedirect = { op: string; fd: string | null; target: ShellWord };
export type SimpleCommand = { assigns: { name: string; value: ShellWord | null }[]; words: ShellWord[]; redirects: ShellRedirect[] };
/**
 * `opaque`: what the line holds beyond plain commands — function definitions, loops that set a
 * variable, arithmetic, `[[ ]]`, declarations, `time`, coprocesses, `$(…)`, parameter expansions
 * — each named once. `groupRedirects`: redirections of compound commands (`( … ) > f`). `error`:
 * the line does not parse (or is too long to parse here); then nothing else is known.
 */
export type ShellScript = { commands: SimpleCommand[]; groupRedirects: ShellRedirect[]; opaque: string[]; error: string | null };

/** Parsing costs ~4 µs a character in this build: longer lines are not read (a held call keeps 4,000). */
export const MAX_PARSED_CHARS = 10_000;

type Node = Record<string, unknown> & { Pos(): { Offset(): number }; End(): { Offset(): number } };
type Syntax = {
  NewParser(): { Parse(src: string, name: string): Node };
  NodeType(node: unknown): string;
  Walk(node: Node, visit: (node: Node | null) => boolean): void;
};
const syntax = (mvdan as unknown as { syntax: Syntax }).syntax;
// Loading the GopherJS build sets an unlimited stack trace length for the whole process; every
// Error would then capture its whole stack. Node's default is put back (parsing does not need it).
if (Error.stackTraceLimit === Infinity) Error.stackTraceLimit = 10;
const parser = syntax.NewParser();

/** Nodes a plain line is made of; any other kind is named in `opaque`. */
const PLAIN = new Set(["File", "Stmt", "CallExpr", "Word", "Lit", "SglQuoted", "DblQuoted", "BinaryCmd", "Subshell", "Block", "IfClause", "WhileClause", "CaseClause", "CaseItem", "Redirect", "Comment", "Assign"]);

/** The parser's operator numbers, learned from the parser itself (they are not part of its API). */
const REDIR_OPS = new Map<number, string>();
for (const op of [">", ">>", "<", "<>", ">&", "<&", ">|", "<<", "<<-", "<<<", "&>", "&>>"]) {
  const stmt = (parser.Parse(`a ${op} b${op.startsWith("<<") && op !== "<<<" ? "\nb\n" : ""}`, "").Stmts as Node[])[0]!;
  REDIR_OPS.set((stmt.Redirs as Node[])[0]!.Op as number, op);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function parseShell(line: string): ShellScript {
  if (line.length > MAX_PARSED_CHARS) return { commands: [], groupRedirects: [], opaque: [], error: `longer than ${MAX_PARSED_CHARS} characters` };
  const cached = memo.get(line);
  if (cached) return cached;
  const script = read(line);
  if (memo.size >= 64) memo.delete(memo.keys().next().value!);
  memo.set(line, script);
  return script;
}
const memo = new Map<string, ShellScript>();

function read(line: string): ShellScript {
  const bytes = encoder.encode(line);
  const source = (n: Node) => decoder.decode(bytes.subarray(n.Pos().Offset(), n.End().Offset()));
  try {
    const file = parser.Parse(line, "");
    const commands: SimpleCommand[] = [];
    const groupRedirects: ShellRedirect[] = [];
    const opaque = new Set<string>();
    syntax.Walk(file, (node) => {
      if (!node) return true;
      const kind = syntax.NodeType(node);
      if (kind === "SglQuoted" && node.Dollar) opaque.add("$'…' quoting");
      else if (kind === "DblQuoted" && node.Dollar) opaque.add('$"…" quoting');
      else if (!PLAIN.has(kind)) opaque.add(kind);
      if (kind !== "Stmt") return true;
      if (node.Coprocess) opaque.add("coprocess");
      const cmd = node.Cmd as Node | null;
      const redirects = (node.Redirs as Node[]).map((r) => redirect(r, source));
      if (!cmd || syntax.NodeType(cmd) === "CallExpr") commands.push(simple(cmd, redirects, source));
      else groupRedirects.push(...redirects);
      return true;
    });
    return { commands, groupRedirects, opaque: [...opaque], error: null };
  } catch (err) {
    return { commands: [], groupRedirects: [], opaque: [], error: errorText(err) };
  }
}

function errorText(err: unknown): string {
  const e = err as { Error?: () => string; message?: string } | null;
  return (typeof e?.Error === "function" ? e.Error() : e?.message) || "unreadable";
}

function simple(cmd: Node | null, redirects: ShellRedirect[], source: (n: Node) => string): SimpleCommand {
  const assigns = ((cmd?.Assigns ?? []) as Node[]).map((a) => ({ name: String((a.Name as Node | null)?.Value ?? ""), value: a.Value ? word(a.Value as Node, source) : null }));
  return { assigns, words: ((cmd?.Args ?? []) as Node[]).map((w) => word(w, source)), redirects };
}

function redirect(r: Node, source: (n: Node) => string): ShellRedirect {
  const target = (r.Hdoc ?? r.Word) as Node | null;
  const op = REDIR_OPS.get(r.Op as number) ?? "?";
  return { op, fd: r.N ? String((r.N as Node).Value) : null, target: target ? word(target, source) : { value: "", source: "" } };
}

function word(w: Node, source: (n: Node) => string): ShellWord {
  const parts = w.Parts as Node[];
  let value: string | null = "";
  parts.forEach((part, i) => {
    if (value === null) return;
    const kind = syntax.NodeType(part);
    if (kind === "Lit") {
      const text = unquotedLit(String(part.Value), i === 0);
      value = text === null ? null : value + text;
    }
    else if (kind === "SglQuoted" && !part.Dollar) value += String(part.Value);
    else if (kind === "DblQuoted" && !part.Dollar) {
      for (const inner of part.Parts as Node[]) {
        if (value === null) break;
        value = syntax.NodeType(inner) === "Lit" ? value + String(inner.Value).replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c)) : null;
      }
    } else value = null;
  });
  return { value, source: source(w) };
}

/** An unquoted literal's text, or null when the shell would expand it: globs, `{a,b}`, a `~` (also after `=` or `:`). */
function unquotedLit(text: string, first: boolean): string | null {
  if ((first && text.startsWith("~")) || /[=:]~/.test(text)) return null;
  let out = "";
  let braces = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      const next = text[++i];
      if (next !== undefined && next !== "\n") out += next;
    } else if (c === "*" || c === "?" || c === "[") return null;
    else {
      if (c === "{") braces = true;
      if (braces && (c === "," || (c === "." && text[i + 1] === "."))) return null;
      out += c;
    }
  }
  return out;
}
