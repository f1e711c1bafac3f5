// Most command lines an agent runs are a few plain words (`npm test -- --shard 3`, `git status &&
// git diff`): reading them does not need the shell parser, whose GopherJS build costs ~100 µs even
// for a short line (the largest part of a gated hook call's own handling). This reads only such
// lines, exactly as shell-parse.ts's parser reads them, and returns null for anything else, which
// then goes to the parser. plain-shell-line.test.ts holds the two equal over generated lines.
import type { ShellScript, ShellWord, SimpleCommand } from "./shell-parse";

/** Unquoted characters that are a literal in every position the shell reads them (no glob, tilde, brace, comment). */
const LITERAL = /^[A-Za-z0-9_\-./,:+@%=]$/;
/** Characters a single- or double-quoted part may hold here: printable ASCII; in double quotes nothing the shell expands or escapes. */
const SINGLE = /^[\x20-\x26\x28-\x7e]$/;
const DOUBLE = /^[\x20\x23\x25-\x5b\x5d-\x5f\x61-\x7e]$/;
/** Words that make a command position something other than a simple command (or that this reader does not vouch for). */
const NOT_A_CALL = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "while",
  "until",
  "for",
  "in",
  "select",
  "function",
  "time",
  "coproc",
  "declare",
  "local",
  "export",
  "readonly",
  "typeset",
  "nameref",
  "let",
  "eval",
]);

/** The line's commands when it is only simple commands of literal and quoted words joined by `&&`, `||`, `|` or `;`; else null. */
export function plainShellLine(line: string): ShellScript | null {
  const commands: SimpleCommand[] = [];
  let words: ShellWord[] = [];
  let i = 0;
  const n = line.length;
  const endCommand = (): boolean => {
    const first = words[0];
    if (!first || first.source.includes("=") || first.source.startsWith("@") || NOT_A_CALL.has(first.source))
      return false;
    commands.push({ assigns: [], words, redirects: [] });
    words = [];
    return true;
  };
  while (i < n) {
    const c = line[i]!;
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    if (c === "&" || c === "|" || c === ";") {
      const next = line[i + 1];
      // `&` alone (a background job), `|&`, `;;` and `;&` are not plain; `&&`, `||`, `|` and `;` are.
      if (c === "&" ? next !== "&" : c === "|" ? next === "&" : next === ";" || next === "&") return null;
      if (!endCommand()) return null;
      i += c !== ";" && next === c ? 2 : 1;
      // `a;` ends the line; `a &&` with nothing after it is not plain.
      if (c === ";" && /^[ \t]*$/.test(line.slice(i)))
        return { commands, groupRedirects: [], opaque: [], error: null };
      continue;
    }
    const start = i;
    let value = "";
    while (i < n) {
      const d = line[i]!;
      if (d === "'" || d === '"') {
        const close = line.indexOf(d, i + 1);
        if (close < 0) return null;
        const inner = line.slice(i + 1, close);
        for (const ch of inner) if (!(d === "'" ? SINGLE : DOUBLE).test(ch)) return null;
        value += inner;
        i = close + 1;
      } else if (LITERAL.test(d)) {
        value += d;
        i++;
      } else if (d === " " || d === "\t" || d === "&" || d === "|" || d === ";") break;
      else return null;
    }
    words.push({ value, source: line.slice(start, i) });
  }
  if (!endCommand()) return null;
  return { commands, groupRedirects: [], opaque: [], error: null };
}
