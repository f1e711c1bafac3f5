// The tool policy against real bash: each line of a corpus (bash-policy-corpus.ts) is judged by the
// policy and then run by bash in a throwaway folder whose PATH starts with spy programs. A spy
// writes down which file ran, its arguments and its whole environment, and does nothing else. What
// an allow rule (or a remembered allow) admits must run only the programs it names, with the
// arguments it names, in an unchanged environment; whatever runs `rm -rf` must have been denied,
// and whatever runs `git push` must not have been allowed. Gemini CLI's shell, under the same rules
// on `shell`, gets every line's very verdict.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Tape } from "../testing/reducer-tape";
import { evaluateToolCall, type ToolVerdict } from "../domain/state/tool-policy";
import type { AgentKind } from "../domain/vocabulary";
import { generatedLines, KNOWN_LINES } from "./bash-policy-corpus";

const SPIED = [
  "git",
  "npm",
  "node",
  "rm",
  "touch",
  "curl",
  "sudo",
  "doas",
  "su",
  "ssh",
  "chroot",
  "unshare",
  "strace",
  "watch",
  "python3",
  "make",
];
const root = mkdtempSync(join(tmpdir(), "pw-bash-differential-"));
const bin = join(root, "bin");
const evil = join(root, "evil");
const home = join(root, "home");
const log = join(root, "spy.log");
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A spy: one line per run — the file that ran, its arguments, its exported environment — then exit 0. */
function spy(path: string): void {
  // Built whole, then written at once: spies in one pipeline append side by side.
  const script = `#!/bin/bash
r=$(printf '%s' "$0"; for a in "$@"; do printf '\\x1f%s' "$a"; done; printf '\\x1e'
  while IFS= read -r -d '' kv; do case "$kv" in PWD=*|OLDPWD=*|SHLVL=*|_=*) ;; *) printf '%s\\x1f' "$kv" ;; esac; done < <(env -0))
printf '%s\\x1d' "$r" >> ${JSON.stringify(log)}
exit 0
`;
  writeFileSync(path, script);
  chmodSync(path, 0o755);
}
for (const dir of [bin, evil, home]) mkdirSync(dir);
for (const name of SPIED) for (const dir of [bin, evil]) spy(join(dir, name));

const PATH = `${bin}:/usr/bin:/bin`;
const BASE_ENV: Record<string, string> = { PATH, HOME: home, LANG: "C" };
type Run = { file: string; args: string[]; env: Record<string, string> };

/** Runs one line in bash in a fresh folder (which holds spies named ./git and ./npm); what the spies saw. */
function runInBash(line: string): { runs: Run[]; created: string[] } {
  const cwd = mkdtempSync(join(root, "cwd-"));
  spy(join(cwd, "git"));
  spy(join(cwd, "npm"));
  writeFileSync(log, "");
  spawnSync("/bin/bash", ["-c", line], {
    cwd,
    env: BASE_ENV as NodeJS.ProcessEnv,
    input: "",
    timeout: 10_000,
    stdio: "pipe",
  }); // a pipe held by a job left in the background is waited for too
  const runs = readFileSync(log, "utf8")
    .split("\x1d")
    .filter(Boolean)
    .map((record) => {
      const [call, envText] = record.split("\x1e") as [string, string];
      const [file, ...args] = call.split("\x1f");
      const env = Object.fromEntries(
        envText
          .split("\x1f")
          .filter(Boolean)
          .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
      );
      return { file: file!, args, env };
    });
  const created = readdirSync(cwd).filter((f) => f !== "git" && f !== "npm");
  rmSync(cwd, { recursive: true, force: true });
  return { runs, created };
}

const RULES = [
  { id: "exact", tool: "Bash", input: "git status|npm test", action: "allow" },
  { id: "no-rm", tool: "Bash", input: "rm -rf*", action: "deny" },
  { id: "push", tool: "Bash", input: "git push*", action: "ask" },
];
const WIDE = [
  { id: "wide", tool: "Bash", input: "git status*|npm test*|git log *", action: "allow" },
  ...RULES.slice(1),
];
/** Options that make git or npm run other code: a wide allow rule must not admit them (a list kept apart from the policy's own). */
const LOADING = [
  /^-c/,
  /^-C/,
  /^--config-env/,
  /^--exec-path/,
  /^--git-dir/,
  /^--work-tree/,
  /^--upload-pack/,
  /^--receive-pack/,
  /^--node-options/,
  /^--script-shell/,
  /^--userconfig/,
];

/** `tool`, `agent`: whose shell asked, and was allowed "for this session" once. */
function policyState(rules: { tool: string }[], tool = "Bash", agent?: AgentKind) {
  const t = Tape.team();
  t.add("session.started", "impl", { via: "claude-code", cwd: root }, { sessionId: "s1" });
  t.add("agent.policy.set", "admin", { rules });
  const ask = {
    requestId: "r1",
    toolUseId: "tu-r1",
    tool,
    input: JSON.stringify({ command: "git push origin main" }),
    context: [],
    deadline: { inMinutes: 5, then: "answer", answer: "deny" },
    ...(agent ? { agent } : {}),
  };
  t.add("tool.approval.requested", "impl", ask, { sessionId: "s1" });
  t.add("tool.approval.answered", "ana", { requestId: "r1", decision: "allow", remember: "session" });
  return t.state;
}

const corpus = [...KNOWN_LINES, ...generatedLines(260)].map((l) =>
  l.replaceAll("$ROOT", root).replaceAll("$BIN", bin),
);
const exact = policyState(RULES);
const wide = policyState(WIDE);
const judged = (state: typeof exact, line: string): ToolVerdict =>
  evaluateToolCall(state, "impl", "s1", "Bash", { command: line }, root);
// The same rules on the common name `shell`, for Gemini CLI's shell tool: each verdict must be the
// Bash one, so everything this test proves of Bash holds for it.
const inCommonNames = (rules: { tool: string }[]) => rules.map((r) => ({ ...r, tool: "shell" }));
const geminiExact = policyState(inCommonNames(RULES), "run_shell_command", "gemini-cli");
const geminiWide = policyState(inCommonNames(WIDE), "run_shell_command", "gemini-cli");
const judgedForGemini = (state: typeof exact, line: string): ToolVerdict =>
  evaluateToolCall(state, "impl", "s1", "run_shell_command", { command: line }, root, "gemini-cli");
const admitted = (v: ToolVerdict) => v.action === "allow" && v.scope !== "none";

/** What an allowed line may have run: the named programs from the spy folder, with the named arguments, in the shell's own environment. */
function assertPlain(line: string, v: ToolVerdict, runs: Run[], allowed: (r: Run) => boolean): void {
  for (const run of runs) {
    const name = run.file.slice(run.file.lastIndexOf("/") + 1);
    expect(run.file, `${line} (${v.scope}) ran ${run.file}`).toBe(join(bin, name));
    expect(run.env, `${line} (${v.scope}) changed the environment`).toEqual(BASE_ENV);
    expect(allowed(run), `${line} (${v.scope}) ran ${name} ${run.args.join(" ")}`).toBe(true);
  }
}

describe("the Bash policy against real bash, with spy programs", () => {
  it(`holds for every line of the corpus (${corpus.length} lines)`, () => {
    expect(corpus.length).toBeGreaterThanOrEqual(KNOWN_LINES.length + 200);
    let admittedLines = 0;
    let refused = 0;
    for (const line of corpus) {
      const { runs, created } = runInBash(line);
      const strict = judged(exact, line);
      const loose = judged(wide, line);
      expect(judgedForGemini(geminiExact, line), `${line} for Gemini CLI`).toEqual(strict);
      expect(judgedForGemini(geminiWide, line), `${line} for Gemini CLI (wide)`).toEqual(loose);
      if (admitted(strict)) {
        admittedLines++;
        expect(created, `${line} wrote files`).toEqual([]);
        const session = (r: Run) => r.file.endsWith("/git") && r.args.join(" ") === "push origin main";
        assertPlain(
          line,
          strict,
          runs,
          (r) =>
            (r.file.endsWith("/git") && r.args.join(" ") === "status") ||
            (r.file.endsWith("/npm") && r.args.join(" ") === "test") ||
            (strict.scope === "session" && session(r)),
        );
      } else refused++;
      if (admitted(loose)) {
        expect(created, `${line} wrote files`).toEqual([]);
        assertPlain(line, loose, runs, (r) => {
          const [first, ...rest] = r.args;
          const named = r.file.endsWith("/git")
            ? first === "status" ||
              first === "log" ||
              (loose.scope === "session" && r.args.join(" ") === "push origin main")
            : r.file.endsWith("/npm") && first === "test";
          return named && !rest.some((a) => LOADING.some((o) => o.test(a)));
        });
      }
      // Whatever ran `rm -rf` was denied; whatever ran `git push` was at least asked about (or remembered exactly).
      if (runs.some((r) => r.file.endsWith("/rm") && r.args[0] === "-rf"))
        expect(strict.action, `${line} ran rm -rf`).toBe("deny");
      if (
        runs.some(
          (r) => r.file.endsWith("/git") && r.args[0] === "push" && r.args.join(" ") !== "push origin main",
        )
      )
        expect(strict.action, `${line} ran git push`).not.toBe("allow");
    }
    // The corpus exercises the allow side, not only refusals.
    expect(admittedLines).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(200);
  }, 300_000);
});
