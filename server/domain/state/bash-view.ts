// A Bash line as the tool policy sees it (tool-policy.ts). Deny and ask rules get every simple
// command in many forms — the program by its name, each wrapper seen through with its options and
// their values (`sudo -u root rm -rf /` is also `rm -rf /`), the text given to `bash -c`, `eval`,
// `env -S` read as commands — and are told when a program cannot be known, so they match rather
// than miss. Allow rules get the commands only when each one is a program run plainly.
import {
  parseShell,
  type ShellRedirect,
  type ShellScript,
  type ShellWord,
  type SimpleCommand,
} from "./shell-parse";
import { loadingOption, SHELL_CHANGERS, SHELLS, WRAPPERS } from "./shell-programs";

/** `text`: the command as written, its words quoted where the shell would need it; `redirected`: it ends with a file redirection. */
export type PlainCommand = { text: string; redirected: boolean };
/**
 * `forms`: what deny and ask rules are matched against. `unknown`: some program, or some code
 * the line runs, cannot be known from the text. `plain`: the commands an allow rule must each
 * match, or null when the line is not plainly programs with arguments (`why` says what is not).
 */
export type BashView = {
  forms: string[];
  unknown: boolean;
  plain: PlainCommand[] | null;
  why: string | null;
};

const MAX_DEPTH = 4;
const MAX_FORMS = 1000;
/** How far into a wrapper's words the wrapped command is looked for; past it, the program is unknown. */
const MAX_WRAPPED_WORDS = 64;
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
/** Programs whose arguments are joined into a command line for a shell (here or on another host). */
const JOINED_CODE = new Set(["watch", "ssh"]);

/** How much command text one line may have read beyond itself (`bash -c`, `eval`…): parsing costs ~4 µs a character. */
const READ_BUDGET = 5_000;

type Reading = { forms: Set<string>; unknown: boolean; budget: number };

export function bashView(line: string): BashView {
  const script = parseShell(line);
  const reading: Reading = { forms: new Set(), unknown: false, budget: READ_BUDGET };
  readScript(script, reading, 0);
  const forms = [...reading.forms];
  const why = notPlain(script);
  const plain = why ? null : script.commands.map(plainCommand);
  return {
    forms: forms.slice(0, MAX_FORMS),
    unknown: reading.unknown || forms.length > MAX_FORMS,
    plain,
    why,
  };
}

function readScript(script: ShellScript, out: Reading, depth: number): void {
  if (script.error !== null || depth > MAX_DEPTH) out.unknown = true;
  else {
    for (const c of script.commands) {
      const assigned = new Map(c.assigns.map((a) => [a.name, a.value?.value ?? null]));
      for (const a of c.assigns) readSetting(a.name, a.value?.value ?? null, out, depth, assigned);
      readCommand(c.words, out, depth);
      // A quoted `$(…)` or backtick may still run: as an arithmetic index (`x='a[$(…)]'; echo $((x))`), or in another shell.
      for (const w of [...c.words, ...c.assigns.map((a) => a.value)]) {
        // Read as commands, and as a word (`a[$(…)]` is no command line of its own).
        if (w?.value && /\$\(|`/.test(w.value))
          for (const text of [w.value, `: ${w.value}`]) readText(text, out, depth, false);
      }
    }
  }
}

/** Reads command text found in the line, within the line's budget; `strict`: text that does not parse is unknown code. */
function readText(text: string, out: Reading, depth: number, strict = true): void {
  if (text.length > out.budget || depth >= MAX_DEPTH) {
    out.unknown = true;
    return;
  }
  out.budget -= text.length;
  const script = parseShell(text);
  if (script.error === null || strict) readScript(script, out, depth + 1);
}

function readCommand(words: ShellWord[], out: Reading, depth: number): void {
  if (!words.length) return;
  if (words[0]!.value === null) out.unknown = true;
  addForms(words, out, depth);
  const name = programName(words[0]!);
  if (name === "git") readGitSettings(words, out, depth);
  if (!WRAPPERS.has(name) && name !== "find" && !runsPackage(name, words)) return;
  // `env GIT_SSH_COMMAND=… git push`, `sudo PAGER=… git log`: settings given to the wrapped command.
  for (const w of words.slice(1, MAX_WRAPPED_WORDS)) {
    const setting = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(w.value ?? "");
    if (setting) readSetting(setting[1]!, w.value!.slice(setting[0].length), out, depth);
  }
  // Every later word may be where the wrapped command starts: an option's value is not mistaken for the program.
  const starts =
    name === "find"
      ? words.flatMap((w, i) => (FIND_EXEC.has(w.value ?? "") ? [i + 1] : []))
      : words.map((_w, i) => i).slice(1, MAX_WRAPPED_WORDS);
  if (name !== "find" && words.length > MAX_WRAPPED_WORDS) out.unknown = true;
  for (const i of starts) if (i < words.length) addForms(words.slice(i), out, depth);
  // Any word there that the shell expands may be the program: which one runs cannot be known.
  if (starts.some((i) => words[i]?.value === null)) out.unknown = true;
}

function addForms(words: ShellWord[], out: Reading, depth: number): void {
  const values = words.map((w) => w.value ?? w.source);
  const name = programName(words[0]!);
  const args = values.slice(1).join(" ");
  out.forms.add(args ? `${name} ${args}` : name);
  if (name !== values[0]) out.forms.add(values.join(" "));
  if (name === "git") out.forms.add(["git", ...values.slice(gitSubcommand(values))].join(" "));
  if (JOINED_CODE.has(name)) {
    for (let i = 1; i < Math.min(words.length, 8); i++) readJoined(words.slice(i), out, depth);
    return;
  }
  const code = codeText(name, words.slice(1));
  if (code === null) out.unknown = true;
  else if (code !== undefined) readText(code, out, depth);
}

function readJoined(words: ShellWord[], out: Reading, depth: number): void {
  if (words.some((w) => w.value === null)) out.unknown = true;
  else readText(words.map((w) => w.value).join(" "), out, depth);
}

/** The command line a program is given as text (`bash -c`, `eval`, `env -S`, `trap`): undefined for none, null when it is expanded at run time. */
function codeText(name: string, args: ShellWord[]): string | null | undefined {
  const valueAfter = (i: number) => (i < 0 || i + 1 >= args.length ? undefined : args[i + 1]!.value);
  if (SHELLS.has(name) || name === "su" || name === "runuser" || name === "flock" || name === "script") {
    return valueAfter(
      args.findIndex(
        (w) => w.value !== null && (/^-[A-Za-z]*c[A-Za-z]*$/.test(w.value) || w.value === "--command"),
      ),
    );
  }
  if (name === "eval") return args.some((w) => w.value === null) ? null : args.map((w) => w.value).join(" ");
  if (name === "trap") return args[0] && !args[0].value?.startsWith("-") ? args[0].value : undefined;
  if (name === "alias")
    return args.some((w) => w.value === null)
      ? null
      : args.map((w) => w.value!.replace(/^[^=]*=/, "")).join("\n");
  if (name === "env") {
    const i = args.findIndex((w) => w.value === null || /^-S|^--split-string/.test(w.value));
    if (i < 0) return undefined;
    const attached = args[i]!.value?.replace(/^-S|^--split-string=?/, "");
    const split = attached ? attached : valueAfter(i);
    const rest = args.slice(attached ? i + 1 : i + 2);
    if (split == null || rest.some((w) => w.value === null)) return null;
    return [split.replace(/\\_/g, " "), ...rest.map((w) => w.value)].join(" ");
  }
  return undefined;
}

/** `npx rm -rf /`, `npm exec -- …`, `pnpm dlx …`: a package runner runs the command in its arguments (an allow rule may still name it). */
const RUNNERS = new Set(["npx", "pnpx", "bunx"]);
const PACKAGE_MANAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);
const RUN_SUBCOMMANDS = new Set(["exec", "x", "dlx"]);
const runsPackage = (name: string, words: ShellWord[]) =>
  RUNNERS.has(name) ||
  (PACKAGE_MANAGERS.has(name) &&
    RUN_SUBCOMMANDS.has(words.slice(1).find((w) => !w.value?.startsWith("-"))?.value ?? ""));

/** Variables whose value a program runs as a command line (git's pager, ssh, editor; bash's startup file). */
const CODE_VARIABLES =
  /^(GIT_SSH_COMMAND|GIT_SSH|GIT_PAGER|PAGER|MANPAGER|GIT_EDITOR|EDITOR|VISUAL|GIT_SEQUENCE_EDITOR|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|GIT_PROXY_COMMAND|BASH_ENV|ENV|PROMPT_COMMAND|GIT_CONFIG_VALUE_\d+|GIT_CONFIG_PARAMETERS)$/;
/** git settings whose value is a command line, or a git subcommand (`alias.*`). */
const GIT_CODE_KEYS =
  /^(alias\.|pager\.|core\.(pager|editor|sshcommand|fsmonitor|askpass|gitproxy|hookspath)$|sequence\.editor$|diff\.external$|include(if)?\.|.*\.(textconv|command|cmd|clean|smudge|process|helper|program|uploadpack|receivepack)$)/i;

/** A setting that names code (`GIT_SSH_COMMAND='rm -rf /'`, git's `alias.x=!rm -rf /` or `alias.p=push`) is read as commands, and as a git subcommand. */
function readSetting(
  name: string,
  value: string | null,
  out: Reading,
  depth: number,
  assigned?: Map<string, string | null>,
): void {
  if (!CODE_VARIABLES.test(name)) return;
  // GIT_CONFIG_VALUE_n is code only when its GIT_CONFIG_KEY_n, set beside it, names code (or cannot be read).
  const n = /^GIT_CONFIG_VALUE_(\d+)$/.exec(name)?.[1];
  const key = n === undefined ? undefined : assigned?.get(`GIT_CONFIG_KEY_${n}`);
  if (typeof key === "string" && !GIT_CODE_KEYS.test(key)) return;
  readCode(value, out, depth);
}
function readCode(value: string | null, out: Reading, depth: number): void {
  if (value === null) out.unknown = true;
  else {
    readText(value.replace(/^!/, ""), out, depth, false);
    if (!value.startsWith("!")) out.forms.add(`git ${value}`);
  }
}

/** git's own `-c key=value` and `--config-env=key=VAR` before its subcommand, read when the key names code. */
function readGitSettings(words: ShellWord[], out: Reading, depth: number): void {
  for (let i = 1; i < words.length && (words[i]!.value ?? "-").startsWith("-"); i++) {
    const v = words[i]!.value;
    const env = v?.startsWith("--config-env") ?? false;
    const setting =
      v === "-c" || v === "--config-env"
        ? words[++i]?.value
        : env
          ? v!.slice("--config-env=".length)
          : undefined;
    if (v === null || setting === null) out.unknown = true;
    else if (setting !== undefined) {
      const key = setting.split("=")[0]!;
      if (GIT_CODE_KEYS.test(key)) {
        if (env || !setting.includes("=")) out.unknown = true;
        else readCode(setting.slice(key.length + 1), out, depth);
      }
    } else if (GIT_VALUE_OPTIONS.has(v!)) i++;
  }
}

/** Where git's subcommand starts, past its own options (`git -C x -c a=b push` is a `git push`). */
function gitSubcommand(values: string[]): number {
  let i = 1;
  while (i < values.length && values[i]!.startsWith("-")) i += GIT_VALUE_OPTIONS.has(values[i]!) ? 2 : 1;
  return i;
}
const GIT_VALUE_OPTIONS = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
  "--attr-source",
  "--list-cmds",
]);

/** A program's name: the word after quote removal, cut to what follows its last `/`. */
function programName(word: ShellWord): string {
  const v = word.value ?? word.source;
  const base = /\s/.test(v) ? v : v.slice(v.lastIndexOf("/") + 1);
  return base || v;
}

/** Why an allow rule may not admit this line, or null when every command is a program run plainly. */
function notPlain(script: ShellScript): string | null {
  if (script.error !== null) return `it does not parse (${script.error})`;
  if (script.opaque.length) return `it holds ${script.opaque.join(", ")}`;
  if (!script.groupRedirects.every(harmless)) return "it redirects a group of commands to a file";
  for (const c of script.commands) {
    if (c.assigns.length) return `it sets ${c.assigns[0]!.name}`;
    const expanded = c.words.find((w) => w.value === null);
    if (expanded) return `the shell expands ${expanded.source}`;
    if (!c.words.length) return "it redirects with no command";
    const name = programName(c.words[0]!);
    const args = c.words.slice(1).map((w) => w.value!);
    if (WRAPPERS.has(name)) return `${name} runs another command`;
    if (SHELL_CHANGERS.has(name)) return `${name} changes what the shell runs`;
    if (codeText(name, c.words.slice(1)) !== undefined) return `${name} runs a command line given as text`;
    const loading = loadingOption(name, args);
    if (loading !== null) return `${loading} makes ${name} load or run other code`;
    if (c.redirects.some((r) => r.target.value === null))
      return "a redirection's target is expanded by the shell";
  }
  return null;
}

function plainCommand(c: SimpleCommand): PlainCommand {
  const words = c.words.map((w) => quoted(w.value!));
  const files = c.redirects
    .filter((r) => !harmless(r))
    .map(
      (r) =>
        `${r.fd ?? ""}${r.op} ${r.op.startsWith("<<") && r.op !== "<<<" ? "…" : quoted(r.target.value!)}`,
    );
  return { text: [...words, ...files].join(" "), redirected: files.length > 0 };
}

/** A redirection that reads or writes no file: `/dev/null`, or a descriptor copied or closed (`2>&1`, `>&-`). */
function harmless(r: ShellRedirect): boolean {
  const target = r.target.value;
  if ((r.op === ">&" || r.op === "<&") && target !== null && /^(\d+-?|-)$/.test(target)) return true;
  return target === "/dev/null" && !r.op.startsWith("<<");
}

/** A word as the shell would need it written to mean exactly it. */
export function quoted(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
