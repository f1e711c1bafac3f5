// The command lines the differential test (bash-policy.differential.test.ts) runs through the tool
// policy and through real bash: the attacks the policy is known to face, written out, and lines
// generated from a seed — quoting, expansions, wrappers with options, assignments, paths, here
// documents, subshells, pipelines, lists, redirections, command substitution. `$ROOT` stands for
// the throwaway folder; nothing here reaches outside it: harmful programs are only ever spies.

/** Written out: each line an allow, deny or ask rule once misread. */
export const KNOWN_LINES = [
  "env -S'touch\\_$ROOT/p' git status",
  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch$IFS$ROOT/p' git status",
  "NODE_OPTIONS=--import=data:text/javascript,0 npm test",
  "PATH=$ROOT/evil:$PATH git status",
  "$ROOT/evil/git status",
  "./git status",
  "sudo -u root rm -rf x",
  "nice -n 5 rm -rf x",
  "timeout -k 1 5 rm -rf x",
  "env -u HOME rm -rf x",
  "echo x | xargs -n 1 rm -rf",
  "sudo -u root git push origin main",
  "git status",
  "npm test",
  "git push origin main",
  "git status && npm test",
  "npm test 2>&1 | npm test",
  "git status >/dev/null",
  "git status\r# ; touch $ROOT/p",
  "echo\r# ; rm -rf x",
  'npm test {"",--node-options=--require=$ROOT/x.js}',
  "git log {'',--output=$ROOT/out}",
];

// Plain, allowed forms are weighted up so both sides of every rule are exercised.
const PROGRAMS = [
  "git status",
  "npm test",
  "git status",
  "npm test",
  "git status",
  "npm test",
  "git push origin main",
  "rm -rf x",
  "touch p",
  "git log --oneline",
  "npm test -- --ci",
  "node -e 1",
  "curl -s x",
];
const PROGRAM_FORMS: ((p: string) => string)[] = [
  (p) => p,
  (p) => p,
  (p) => p,
  (p) => p.replace(/^(\S+)/, "'$1'"),
  (p) => p.replace(/^(\S)(\S*)/, '$1""$2'),
  (p) => p.replace(/^(\S+)/, "\\$1"),
  (p) => p.replace(/^(\S+)/, "$BIN/$1"),
  (p) => p.replace(/^(\S+)/, "$ROOT/evil/$1"),
  (p) => p.replace(/^(\S+)/, "./$1"),
  (p) => p.replace(/^(\S+) (\S+)/, '$1 "$2"'),
  (p) => p.replace(/^(\S+)/, "$'$1'"),
  (p) => p.replace(/^(\S+)/, "X=$1; $$X"),
  (p) => p.replace(/^(\S+)/, "${NOPE:-$1}"),
  (p) =>
    p
      .replace(/^git /, "git -c core.fsmonitor=touch\\ p ")
      .replace(/^npm /, "npm --node-options=--require=./p.js "),
  (p) => p.replace(/^git /, "git -C . ").replace(/^npm /, "npm --script-shell=./git "),
  (p) => `${p} *`,
  (p) => `${p} $HOME`,
];
const PREFIXES = [
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "",
  "FOO=1 ",
  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=touch ",
  "NODE_OPTIONS=--require=./p.js ",
  "PATH=$ROOT/evil:$PATH ",
  "LD_PRELOAD=./p.so ",
  "env ",
  "env FOO=1 ",
  "env -u HOME ",
  "env -S'FOO=1' ",
  "nice -n 5 ",
  "nice ",
  "timeout 5 ",
  "timeout -k 1 5 ",
  "timeout -s KILL 5 ",
  "stdbuf -o L ",
  "nohup ",
  "command ",
  "time ",
  "sudo ",
  "sudo -u root ",
  "setsid ",
  "exec ",
  "builtin ",
];
const WRAPS: ((c: string) => string)[] = [
  (c) => c,
  (c) => c,
  (c) => c,
  (c) => c,
  (c) => `(${c})`,
  (c) => `{ ${c}; }`,
  (c) => `echo $(${c})`,
  (c) => `echo \`${c}\``,
  (c) => `bash -c '${c.replace(/'/g, `'\\''`)}'`,
  (c) => `eval '${c.replace(/'/g, `'\\''`)}'`,
  (c) => `cat <<EOF\n$(${c})\nEOF`,
  (c) => `cat <<'EOF'\n${c}\nEOF`,
  (c) => `${c} > out`,
  (c) => `${c} >/dev/null 2>&1`,
  (c) => `${c} < /dev/null`,
  (c) => `(${c}) > out`,
  (c) => `{ ${c}; } 2> err`,
  (c) => `${c} <<< x`,
  (c) => `echo x | xargs -n 1 ${c}`,
  (c) => `f() { ${c}; }; f`,
  (c) => `for PATH in $ROOT/evil; do ${c}; done`,
  (c) => `if true; then ${c}; fi`,
  (c) => `${c} &`,
];
const PLAIN_WRAPS: ((c: string) => string)[] = [
  (c) => `(${c})`,
  (c) => `{ ${c}; }`,
  (c) => `${c} >/dev/null 2>&1`,
  (c) => `if true; then ${c}; fi`,
  (c) => `! ${c}`,
  (c) => `(${c}) >/dev/null`,
];
const JOINS = [" ; ", " && ", " || ", " | ", "\n"];

/** A small seeded generator (mulberry32): the same lines on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generatedLines(count: number, seed = 20261125): string[] {
  const next = random(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)]!;
  const any = () => pick(WRAPS)(pick(PREFIXES) + pick(PROGRAM_FORMS)(pick(PROGRAMS)));
  // A quarter of the lines keep to what an allow rule may admit, so its side is run as often as the refusals.
  const plain = () =>
    pick(WRAPS.slice(0, 4).concat(PLAIN_WRAPS))(
      pick(PROGRAM_FORMS.slice(0, 7))(pick(["git status", "npm test"])),
    );
  const lines = new Set<string>();
  while (lines.size < count) {
    const one = next() < 0.25 ? plain : any;
    lines.add(next() < 0.6 ? one() : `${one()}${pick(JOINS)}${one()}`);
  }
  return [...lines];
}
