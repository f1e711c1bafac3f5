// The simple commands inside one Bash command line, as a tool policy should see them: `cd x &&
// FOO=1 sudo /usr/bin/git  push` holds `cd x` and `git push`. Not a shell parser: it catches
// the common ways a command hides inside another (separators, subshells, $(…), backticks,
// `bash -c '…'`, variable prefixes, wrappers like sudo/env/nohup, a program's full path) and says
// when a line holds something it cannot see through (`risky`), so an allow rule never waves it on.

/** Programs that run the command after them (their own options skipped). */
const WRAPPERS = new Set(["sudo", "env", "command", "exec", "nohup", "time", "nice", "xargs", "doas", "builtin", "stdbuf", "timeout"]);
const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh"]);
/** What a policy cannot see through: evaluated text, process substitution, here-documents. */
const OPAQUE = /\beval\b|<\(|>\(|<<|\bsource\b|(^|[\s;&|(])\.\s/;
const MAX_DEPTH = 4;
const MAX_PARTS = 200;

export type BashCommands = { parts: string[]; risky: boolean };

/** `$(…)` and backtick contents, which run before the line they sit in. */
function substitutions(line: string): { outer: string; inner: string[] } {
  const inner: string[] = [];
  let outer = line.replace(/`([^`]*)`/g, (_m, body: string) => (inner.push(body), " "));
  // Innermost $( … ) first, repeatedly, so nesting unfolds.
  for (let i = 0; i < 20 && outer.includes("$("); i++) {
    const next = outer.replace(/\$\(([^()]*)\)/g, (_m, body: string) => (inner.push(body), " "));
    if (next === outer) break;
    outer = next;
  }
  return { outer, inner };
}

const unquote = (w: string) => w.replace(/^\\/, "").replace(/^(['"])(.*)\1$/s, "$2");

/** One simple command's words, its variable prefixes and wrappers dropped, its program by basename; `shellArg`: the text of `bash -c '…'`. */
function simplify(part: string): { text: string; shellArg: string | null } {
  const words = part.trim().split(/\s+/).filter(Boolean);
  let i = 0;
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
    const program = words[i] ? unquote(words[i]!).split("/").pop()! : "";
    if (!WRAPPERS.has(program)) break;
    i++;
    while (i < words.length && words[i]!.startsWith("-")) i++; // the wrapper's own options
    if (program === "timeout" && i < words.length && /^\d/.test(words[i]!)) i++;
  }
  const rest = words.slice(i);
  if (!rest.length) return { text: "", shellArg: null };
  rest[0] = unquote(rest[0]!).split("/").pop()!;
  const text = rest.join(" ");
  const c = rest.indexOf("-c");
  const shellArg = SHELLS.has(rest[0]!) && c > 0 ? unquote(part.slice(part.indexOf(" -c ") + 4).trim()) : null;
  return { text, shellArg };
}

export function bashCommands(line: string, depth = 0): BashCommands {
  const joined = line.replace(/\\\r?\n/g, " ");
  // Redirections that name a descriptor (2>&1, &>file) are not the & that runs two commands.
  const { outer, inner } = substitutions(joined.replace(/\d*>&\d*-?|&>>?/g, " > "));
  let risky = OPAQUE.test(joined) || inner.length > 0 || depth >= MAX_DEPTH;
  const parts: string[] = [];
  for (const piece of outer.split(/&&|\|\||[;|&\n(){}]/)) {
    const { text, shellArg } = simplify(piece);
    if (text) parts.push(text);
    if (shellArg !== null) {
      const nested = bashCommands(shellArg, depth + 1);
      parts.push(...nested.parts);
      risky ||= nested.risky;
    }
  }
  for (const body of inner) {
    const nested = bashCommands(body, depth + 1);
    parts.push(...nested.parts);
  }
  if (parts.length > MAX_PARTS) risky = true;
  return { parts: parts.slice(0, MAX_PARTS), risky };
}
