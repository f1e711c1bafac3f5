// A Bash command line read by a real shell parser (mvdan/sh, its JavaScript build), reduced to
// what a tool policy needs: every simple command anywhere in the line (in pipelines, lists,
// subshells, functions, $(…)), with its words, assignments and redirections, and what the line
// holds that a policy cannot vouch for. The parser stays behind this file; tool-policy.ts and
// bash-view.ts hold the policy's semantics.
import mvdan from "mvdan-sh";
import { plainShellLine } from "./plain-shell-line";

/** A word after quote removal (`value`), or null when the shell would expand it (a parameter, `$(…)`, a glob…). */
export type ShellWord = { value: string | null; source: string };
/** `op`: `>`, `>>`, `<`, `<>`, `>&`, `<&`, `>|`, `<<`, `<<-`, `<<<`, `&>`, `&>>`; `fd` the number before it, if any. */
export type ShellRedirect = { op: string; fd: string | null; target: ShellWord };
export type SimpleCommand = {
  assigns: { name: string; value: ShellWord | null }[];
  words: ShellWord[];
  redirects: ShellRedirect[];
};
/**
 * `opaque`: what the line holds beyond plain commands — function definitions, loops that set a
 * variable, arithmetic, `[[ ]]`, declarations, `time`, coprocesses, `$(…)`, parameter expansions
 * — each named once. `groupRedirects`: redirections of compound commands (`( … ) > f`). `error`:
 * the line does not parse (or is too long to parse here); then nothing else is known.
 */
export type ShellScript = {
  commands: SimpleCommand[];
  groupRedirects: ShellRedirect[];
  opaque: string[];
  error: string | null;
};

/** Longer lines are not read: parsing costs up to ~4 µs a character (a held call keeps 4,000). */
export const MAX_PARSED_CHARS = 5_000;

/**
 * The parser's own tree, read directly: the wrapped nodes its JavaScript API hands out convert
 * every field on each access (~0.2 ms a node, seconds for a long line), while the tree underneath
 * is plain objects — a node's Go type in `constructor.string`, its fields by their Go names, a
 * slice as `$array`/`$offset`/`$length`. The version is pinned; the differential test and bash-policy.test.ts hold it.
 */
type Raw = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Syntax = { NewParser(): { Parse(src: string, name: string): Raw } };
const syntax = (mvdan as unknown as { syntax: Syntax }).syntax;
// Loading the GopherJS build sets an unlimited stack trace length for the whole process; every
// Error would then capture its whole stack. Node's default is put back (parsing does not need it).
if (Error.stackTraceLimit === Infinity) Error.stackTraceLimit = 10;
const parser = syntax.NewParser();
const parse = (src: string): Raw => parser.Parse(src, "").__internal_object__;

/** A node's kind (`CallExpr`), or null for a nil pointer or interface, or a position. */
function kindOf(v: unknown): string | null {
  const type: unknown = goType(v)?.string;
  if (
    typeof type !== "string" ||
    !type.startsWith("*syntax.") ||
    type === "*syntax.Pos" ||
    v === goType(v)!.nil
  )
    return null;
  return type.slice(8);
}
/** The Go type GopherJS keeps as a value's constructor. */
const goType = (v: unknown): Raw | undefined => (v as { constructor?: Raw } | null)?.constructor;
const items = (slice: Raw | null | undefined): Raw[] =>
  slice?.$array ? slice.$array.slice(slice.$offset, slice.$offset + slice.$length) : [];

/** Nodes a plain line is made of; any other kind is named in `opaque`. */
const PLAIN = new Set([
  "File",
  "Stmt",
  "CallExpr",
  "Word",
  "Lit",
  "SglQuoted",
  "DblQuoted",
  "BinaryCmd",
  "Subshell",
  "Block",
  "IfClause",
  "WhileClause",
  "CaseClause",
  "CaseItem",
  "Redirect",
  "Comment",
  "Assign",
]);

/** Pieces of a `${…}` (itself named in `opaque`), which the parser's Walk does not report as nodes. */
const PARTS_OF_PARAM = new Set(["Expansion", "Slice", "Replace"]);

/** The parser's operator numbers, learned from the parser itself (they are not part of its API). */
const REDIR_OPS = new Map<number, string>();
for (const op of [">", ">>", "<", "<>", ">&", "<&", ">|", "<<", "<<-", "<<<", "&>", "&>>"]) {
  const stmt = items(parse(`a ${op} b${op.startsWith("<<") && op !== "<<<" ? "\nb\n" : ""}`).Stmts)[0]!;
  REDIR_OPS.set(items(stmt.Redirs)[0]!.Op as number, op);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function parseShell(line: string): ShellScript {
  if (line.length > MAX_PARSED_CHARS)
    return {
      commands: [],
      groupRedirects: [],
      opaque: [],
      error: `longer than ${MAX_PARSED_CHARS} characters`,
    };
  const plain = plainShellLine(line);
  if (plain) return plain;
  const cached = memo.get(line);
  if (cached) return cached;
  const script = parseShellByParser(line);
  if (memo.size >= 64) memo.delete(memo.keys().next().value!);
  memo.set(line, script);
  return script;
}
const memo = new Map<string, ShellScript>();

/** The parser's reading of any line (parseShell reads plain lines without it; plain-shell-line.test.ts compares the two). */
export function parseShellByParser(line: string): ShellScript {
  // The parser reads a carriage return as a blank (`status\r#` as a word and a comment); bash reads it as a letter.
  if (line.includes("\r"))
    return { commands: [], groupRedirects: [], opaque: [], error: "it holds a carriage return" };
  const bytes = encoder.encode(line);
  const source = (n: Raw) => decoder.decode(bytes.subarray(n.Pos().Offset(), n.End().Offset()));
  try {
    const commands: SimpleCommand[] = [];
    const groupRedirects: ShellRedirect[] = [];
    const opaque = new Set<string>();
    // Every node, every field: what the parser's own Walk visits, without its wrappers.
    const visit = (node: Raw, kind: string): void => {
      if (kind === "SglQuoted" && node.Dollar) opaque.add("$'…' quoting");
      else if (kind === "DblQuoted" && node.Dollar) opaque.add('$"…" quoting');
      else if (!PLAIN.has(kind) && !PARTS_OF_PARAM.has(kind)) opaque.add(kind);
      if (kind === "Stmt") {
        if (node.Coprocess) opaque.add("coprocess");
        const redirects = items(node.Redirs).map((r) => redirect(r, source));
        const cmdKind = kindOf(node.Cmd);
        if (cmdKind === null || cmdKind === "CallExpr")
          commands.push(simple(cmdKind ? node.Cmd : null, redirects, source));
        else groupRedirects.push(...redirects);
      }
      for (const field of goType(node)!.elem.fields as { prop: string }[]) {
        const value = node[field.prop];
        for (const child of value?.$array ? items(value) : [value]) {
          const childKind = kindOf(child);
          if (childKind) visit(child, childKind);
        }
      }
    };
    visit(parse(line), "File");
    return { commands, groupRedirects, opaque: [...opaque], error: null };
  } catch (err) {
    return { commands: [], groupRedirects: [], opaque: [], error: errorText(err) };
  }
}

function errorText(err: unknown): string {
  const e = err as { Error?: () => string; message?: string } | null;
  return (typeof e?.Error === "function" ? e.Error() : e?.message) || "unreadable";
}

function simple(cmd: Raw | null, redirects: ShellRedirect[], source: (n: Raw) => string): SimpleCommand {
  const assigns = items(cmd?.Assigns).map((a) => ({
    name: kindOf(a.Name) ? String(a.Name.Value) : "",
    value: kindOf(a.Value) ? word(a.Value, source) : null,
  }));
  return { assigns, words: items(cmd?.Args).map((w) => word(w, source)), redirects };
}

function redirect(r: Raw, source: (n: Raw) => string): ShellRedirect {
  const target = kindOf(r.Hdoc) ? r.Hdoc : kindOf(r.Word) ? r.Word : null;
  const op = REDIR_OPS.get(r.Op as number) ?? "?";
  return {
    op,
    fd: kindOf(r.N) ? String(r.N.Value) : null,
    target: target ? word(target, source) : { value: "", source: "" },
  };
}

function word(w: Raw, source: (n: Raw) => string): ShellWord {
  let value: string | null = "";
  // One word's open braces: `{"",-c}` opens in one literal and closes in another, around a quoted part.
  const braces = { open: 0 };
  items(w.Parts).forEach((part, i) => {
    if (value === null) return;
    const kind = kindOf(part);
    if (kind === "Lit") {
      const text = unquotedLit(String(part.Value), i === 0, braces);
      value = text === null ? null : value + text;
    } else if (kind === "SglQuoted" && !part.Dollar) value += String(part.Value);
    else if (kind === "DblQuoted" && !part.Dollar) {
      for (const inner of items(part.Parts)) {
        if (value === null) break;
        value =
          kindOf(inner) === "Lit"
            ? value + String(inner.Value).replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === "\n" ? "" : c))
            : null;
      }
    } else value = null;
  });
  return { value, source: source(w) };
}

/** An unquoted literal's text, or null when the shell would expand it: globs, `{a,b}`, a `~` (also after `=` or `:`). */
function unquotedLit(text: string, first: boolean, braces: { open: number }): string | null {
  if ((first && text.startsWith("~")) || /[=:]~/.test(text)) return null;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\") {
      const next = text[++i];
      if (next !== undefined && next !== "\n") out += next;
    } else if (c === "*" || c === "?" || c === "[") return null;
    else {
      if (c === "{") braces.open++;
      else if (c === "}" && braces.open > 0) braces.open--;
      if (braces.open > 0 && (c === "," || c === ".")) return null;
      out += c;
    }
  }
  return out;
}
