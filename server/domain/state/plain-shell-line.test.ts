// The reader of plain lines must read exactly what the shell parser reads, or say it cannot: a
// tool policy decides on what it returns. Generated lines mix plain words with quotes, operators
// and words that make a line not plain; every line it reads is compared with the parser's reading.
import { describe, expect, it } from "vitest";
import { plainShellLine } from "./plain-shell-line";
import { parseShell, parseShellByParser } from "./shell-parse";

const WORDS = [
  ...["npm", "test", "--", "--shard", "3", "git", "push", "rm", "-rf", "/", "a,b", "x=y", "FOO=1", "a="],
  ...["@x", "%1", ":", ".", "..", "a.b/c", "-", "+x", "0", "2", "ls", "-la", "src/", "--name=v", "@test"],
  ...["if", "then", "fi", "for", "in", "do", "done", "while", "case", "esac", "function", "time", "coproc"],
  ...["declare", "local", "export", "readonly", "typeset", "let", "eval", "select", "until", "elif", "else"],
  ...["[[", "]]", "{", "}", "!", "alias", "exec", "command", "builtin", "source", "[", "]", "(", ")", "a()"],
  ...["'a b'", "'$HOME'", "'*'", "'\"'", '"x y"', '"$x"', '"a\\"b"', "''", '""', "'if'", '"for"', "'FOO=1'"],
  ...['"!x"', '"a`b`"', "'é'", '"é"', "'a\\b'", '"#c"', "'~'", '"~/x"', "'a;b'", '"a&&b"', "'x|y'"],
  ...["a*", "~", "~/x", "a~", "x=~", "#c", "a#b", "$x", "`id`", "$(id)", "a\\ b", "{a,b}", "é", "a?", "<x"],
  ...[">x", "2>&1", "a'b'c", 'a"b"c', "'unclosed", '"unclosed', "x\\", "a^b", "a!b", "(a)", "a{b}"],
];
const GLUE = [" ", " ", " ", "  ", "\t", " && ", "&&", " || ", "|", " | ", ";", "; ", " & ", "&", "|&"];
const ODD_GLUE = [";;", ";&", "\n", "\r", "&&&", "|||", " ;", "", "&>", "||&", " \n "];

/** A small seeded generator: the same lines on every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s % n;
  };
}

function lines(count: number): string[] {
  const next = random(31);
  const pick = <T>(xs: T[]) => xs[next(xs.length)]!;
  return Array.from({ length: count }, () => {
    const parts: string[] = [next(8) === 0 ? " " : ""];
    const n = 1 + next(7);
    for (let i = 0; i < n; i++) {
      // Mostly plain words, so that many lines are plain and get compared.
      parts.push(next(3) ? pick(WORDS.slice(0, 30)) : pick(WORDS));
      if (i < n - 1) parts.push(next(10) ? pick(GLUE) : pick(ODD_GLUE));
    }
    if (next(6) === 0) parts.push(pick([";", " ", "&&", "|", "; ", "\t"]));
    return parts.join("");
  });
}

describe("plain shell lines", () => {
  it("reads every generated line it accepts exactly as the shell parser does", () => {
    let read = 0;
    for (const line of lines(6000)) {
      const plain = plainShellLine(line);
      if (!plain) continue;
      read++;
      expect({ line, script: plain }).toEqual({ line, script: parseShellByParser(line) });
    }
    // Both kinds of line are generated: the comparison covers many plain lines.
    expect(read).toBeGreaterThan(1000);
    expect(read).toBeLessThan(6000);
  });

  it("reads an agent's everyday lines itself", () => {
    for (const line of [
      "npm test -- --shard 3",
      "git status && git diff --stat",
      "ls -la src/ | head -20",
      "git commit -m 'fix: the parser' ; git log --oneline",
      'grep -rn "needle in" server',
    ]) {
      expect(plainShellLine(line)).not.toBeNull();
      expect(parseShell(line)).toEqual(parseShellByParser(line));
    }
  });

  it("leaves to the parser what it cannot vouch for", () => {
    for (const line of [
      "echo $HOME",
      "sleep 1 & rm -rf /",
      "FOO=1 npm test",
      "if true; then a; fi",
      "a ;; b",
      "a |& b",
      "export X=1",
      "time ls",
      'echo "$(id)"',
      "echo `id`",
      "ls *.ts",
      "cd ~",
      "a &&",
      "",
      "a\nb",
      "a\r",
      "echo 'é'",
      "ls > out",
      "{ a; }",
      "(a)",
      "echo a # b",
    ])
      expect(plainShellLine(line)).toBeNull();
  });
});
