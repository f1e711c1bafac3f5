// What the tool policy knows of programs a Bash line may run: which run another command given in
// their arguments (wrappers), which run code given as text, which change the shell itself, and
// which options make a program load or run code other than its own (bash-view.ts uses them).

/** Programs that run a command found in their arguments, often after options that take values. */
export const WRAPPERS = new Set([
  "env",
  "sudo",
  "doas",
  "su",
  "runuser",
  "sg",
  "nice",
  "ionice",
  "renice",
  "chrt",
  "taskset",
  "numactl",
  "timeout",
  "xargs",
  "parallel",
  "nohup",
  "command",
  "exec",
  "builtin",
  "stdbuf",
  "setsid",
  "chroot",
  "unshare",
  "nsenter",
  "time",
  "strace",
  "ltrace",
  "valgrind",
  "watch",
  "flock",
  "prlimit",
  "systemd-run",
  "firejail",
  "proxychains",
  "proxychains4",
  "torsocks",
  "faketime",
  "catchsegv",
  "script",
  "ssh",
  "busybox",
  "coproc",
  "caffeinate",
  "gdb",
  "lldb",
  "fakeroot",
  "unbuffer",
  "sandbox-exec",
  "stdbuf",
  "expect",
  "perf",
  "dbus-run-session",
]);

/** Shells: `-c` (alone or in a cluster like `-lc`) makes the next word a command line. */
export const SHELLS = new Set([
  "bash",
  "sh",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
  "fish",
  "csh",
  "tcsh",
  "yash",
  "rbash",
]);

/** Builtins that run text as code or change how the rest of the line runs. */
export const SHELL_CHANGERS = new Set([
  "eval",
  "source",
  ".",
  "exec",
  "builtin",
  "command",
  "alias",
  "unalias",
  "enable",
  "hash",
  "set",
  "shopt",
  "export",
  "declare",
  "typeset",
  "readonly",
  "local",
  "unset",
  "trap",
  "let",
  "fc",
  "bind",
  "complete",
  "compgen",
  "coproc",
  "mapfile",
  "readarray",
  "read",
  "printf",
]);

/**
 * Options that make a program load or run other code, read another configuration, or work in
 * another repository. A long option also counts when abbreviated (git and others accept unique
 * prefixes) or given as `--name=value`; a short one also when its value is attached (`-cx`) or
 * it sits in a cluster (`-Bc`).
 */
const LOADING_OPTIONS: Record<string, string[]> = {
  git: [
    "-c",
    "-C",
    "--config-env",
    "--exec-path",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--super-prefix",
    "--upload-pack",
    "--receive-pack",
    "--exec",
    "--template",
    "--config",
    "--extcmd",
    "--tool",
    "--attr-source",
    "--ext-diff",
    "--textconv",
    "--output",
  ],
  npm: [
    "--node-options",
    "--script-shell",
    "--shell",
    "--userconfig",
    "--globalconfig",
    "--prefix",
    "-C",
    "--init-module",
    "--call",
    "-c",
    "--registry",
    "--git",
    "--editor",
    "--viewer",
    "--browser",
    "--onload-script",
    "--workspace",
    "-w",
    "--include-workspace-root",
    "--workspaces",
    "--ws",
    "--iwr",
  ],
  npx: [
    "--node-options",
    "--script-shell",
    "--shell",
    "--userconfig",
    "--prefix",
    "--call",
    "-c",
    "--package",
    "-p",
    "--registry",
  ],
  pnpm: [
    "-C",
    "--dir",
    "--node-options",
    "--script-shell",
    "--shell-emulator",
    "--config",
    "--registry",
    "--filter",
    "-F",
    "--workspace-root",
    "-w",
  ],
  yarn: ["--cwd", "--use-yarnrc", "--registry", "--node-options", "--script-shell"],
  node: [
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "-e",
    "--eval",
    "-p",
    "--print",
    "--env-file",
    "--env-file-if-exists",
    "--inspect",
    "--inspect-brk",
    "--inspect-port",
    "--openssl-config",
    "--experimental-config-file",
    "-C",
    "--conditions",
  ],
  tsx: [
    "-r",
    "--require",
    "--import",
    "--loader",
    "-e",
    "--eval",
    "-p",
    "--print",
    "--env-file",
    "--tsconfig",
    "--inspect",
  ],
  bun: [
    "-r",
    "--preload",
    "-e",
    "--eval",
    "-p",
    "--print",
    "--env-file",
    "--config",
    "-c",
    "--cwd",
    "--inspect",
  ],
  deno: [
    "--import-map",
    "--config",
    "-c",
    "--allow-all",
    "-A",
    "--allow-run",
    "--allow-env",
    "--allow-ffi",
    "--env-file",
    "--inspect",
  ],
  python: ["-c"],
  python3: ["-c"],
  ruby: ["-e", "-r", "-I", "-C"],
  perl: ["-e", "-E", "-M", "-m", "-I", "-d", "-x"],
  make: ["-f", "--file", "--makefile", "-C", "--directory", "-E", "--eval", "-I", "--include-dir"],
  cargo: ["--config", "-Z", "--manifest-path", "-C"],
  go: ["-toolexec", "-exec", "-overlay", "-modfile", "-C", "-ldflags", "-gcflags", "-asmflags"],
  tar: [
    "--to-command",
    "--use-compress-program",
    "-I",
    "--checkpoint-action",
    "--rsh-command",
    "--info-script",
    "-F",
    "--new-volume-script",
    "-C",
  ],
  rsync: ["-e", "--rsh", "--rsync-path"],
  scp: ["-o", "-F", "-S", "-J"],
  sftp: ["-o", "-F", "-S", "-J"],
  find: ["-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"],
  man: ["-P", "--pager", "-H", "--html"],
  curl: ["-K", "--config"],
  wget: ["-e", "--execute", "--config"],
  less: ["+!"],
  vim: ["-c", "--cmd", "-S", "-u"],
  vi: ["-c", "--cmd", "-S", "-u"],
  nvim: ["-c", "--cmd", "-S", "-u"],
};

/** Programs that read `NAME=value` arguments as settings (make's variables, SHELL among them). */
const ASSIGNMENT_ARGS = new Set(["make", "gmake"]);

/** Package managers hand what follows `--` to the script's program: node, or a test runner that loads its config, reporters and setup files. */
const FORWARDING = new Set(["npm", "pnpm", "yarn", "bun", "npx"]);
const FORWARDED_LOADING = [
  ...LOADING_OPTIONS.node!,
  "--config",
  "-c",
  "--reporter",
  "--setupFiles",
  "--setup-files",
  "--globalSetup",
  "--global-setup",
  "--environment",
  "--env",
  "--preload",
  "--testEnvironment",
  "--transform",
  "--runner",
  "--testRunner",
  "--resolver",
  "--plugin",
  "--loader",
  "--node-options",
];

/** FORWARDED_LOADING, each with what matching an argument needs worked out once: a single-letter flag also matches as a prefix (`-rfoo`). */
const FORWARDED = FORWARDED_LOADING.map((o) => ({ o, withValue: `${o}=`, letter: /^-[A-Za-z]$/.test(o) }));

/** The first argument that makes `program` (a bare name) load or run other code, or null. */
export function loadingOption(program: string, args: string[]): string | null {
  const own = Object.hasOwn(LOADING_OPTIONS, program) ? LOADING_OPTIONS[program]! : [];
  const forwarded = FORWARDING.has(program) ? args.indexOf("--") : -1;
  for (const [i, arg] of args.entries()) {
    // Forwarded options are matched as written (`--config`, `--config=x`, `-r`), not as a prefix: `--run` is not `--runner`.
    if (forwarded >= 0 && i > forwarded) {
      if (
        FORWARDED.some((f) => arg === f.o || arg.startsWith(f.withValue) || (f.letter && arg.startsWith(f.o)))
      )
        return arg;
      continue;
    }
    if (ASSIGNMENT_ARGS.has(program) && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) return arg;
    if (!own.length) continue;
    const read = readArg(arg);
    for (const option of own) if (matchesOption(option, arg, read)) return arg;
  }
  return null;
}

/** What matching an argument against each option needs, read once per argument. */
type ReadArg = { name: string; long: boolean; letters: boolean };
function readArg(arg: string): ReadArg {
  const eq = arg.indexOf("=");
  return {
    name: eq < 0 ? arg : arg.slice(0, eq),
    long: arg.startsWith("--"),
    letters: /^-[A-Za-z]+$/.test(arg),
  };
}

function matchesOption(option: string, arg: string, { name, long, letters }: ReadArg): boolean {
  if (arg === option) return true;
  if (option.startsWith("--"))
    return (
      arg.startsWith(`${option}=`) || (name.startsWith("--") && name.length >= 5 && option.startsWith(name))
    );
  if (long) return false;
  // `-c` with its value attached (`-cx`) or in a cluster of flags (`-Bc`); `-toolexec`, `+!` as a prefix.
  return (
    arg.startsWith(option) ||
    (option.length === 2 && option[0] === "-" && letters && arg.includes(option[1]!))
  );
}
