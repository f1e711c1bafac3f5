import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { MAX_PARSED_CHARS } from "./shell-parse";
import { evaluateToolCall } from "./tool-policy";

const ask = (requestId: string, command: string) => ({
  requestId,
  toolUseId: `tu-${requestId}`,
  tool: "Bash",
  input: JSON.stringify({ command }),
  context: [],
  deadline: { inMinutes: 5, then: "answer", answer: "deny" },
});

function pod() {
  const t = Tape.team();
  t.add("session.started", "impl", { via: "claude-code", cwd: "/w" }, { sessionId: "s1" });
  t.add("agent.policy.set", "admin", {
    rules: [
      { id: "safe", tool: "Bash", input: "git status|npm test", action: "allow" },
      { id: "rm", tool: "Bash", input: "rm -rf*", action: "deny" },
      { id: "push", tool: "Bash", input: "git push*", action: "ask" },
    ],
  });
  return t;
}
const verdict = (t: Tape, command: string, sessionId: string | null = "s1") =>
  evaluateToolCall(t.state, "impl", sessionId, "Bash", { command });

describe("an allow rule admits exactly the programs it names, run plainly", () => {
  it("admits the named commands as written, in lists, pipelines and subshells, with output to /dev/null", () => {
    const t = pod();
    for (const command of [
      "git status",
      "npm test",
      "git status && npm test",
      "(git status; npm test) | npm test",
      "npm test >/dev/null 2>&1",
      "'git' \"status\"",
      "! git status &",
      "(git status) >/dev/null",
      "{ npm test; } 2>&1",
    ]) {
      expect(verdict(t, command), command).toMatchObject({ action: "allow", ruleId: "safe" });
    }
  });
  it("does not admit what runs other code: assignments, wrappers, other paths, loading options", () => {
    const t = pod();
    for (const command of [
      "env -S'touch\\_/tmp/p' git status",
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch$IFS/tmp/p' git status",
      "NODE_OPTIONS=--import=data:text/javascript,0 npm test",
      "PATH=/tmp/evil:$PATH git status",
      "/tmp/evil/git status",
      "./git status",
      "env git status",
      "nice -n 5 git status",
      "command git status",
      "exec git status",
      "timeout 5 npm test",
      "xargs git status",
      "time git status",
      "git -c core.fsmonitor=x status",
      "git --exec-path=/tmp status",
      "git -C /tmp/evil status",
      "npm test --node-options=--require=/tmp/x.js",
      "npm test --script-shell=/tmp/sh",
      "git status > /tmp/out",
      "git status $X",
      "git status $(touch /tmp/p)",
      "git status `id`",
      "g$X status",
      "f() { :; }; git status",
      "for PATH in /tmp; do git status; done",
      "declare -x A=1; git status",
      "eval git status",
      "bash -c 'git status'",
      "git status <<< x",
      "git status *",
      "git status ~",
      "git status {a,b}",
      "(git status) > out",
      "{ npm test; } < in",
      "",
      "# git status",
      ";",
      "npm test $'\\x41'",
      "((1)) && git status",
      "git status <(x)",
      "alias git=id; git status",
      "export PATH=/tmp; git status",
      "source x; git status",
    ])
      expect(verdict(t, command).ruleId, command).not.toBe("safe");
  });
  it("reads a carriage return as bash does: a word's letter, never a blank before a comment", () => {
    const t = pod();
    // bash ran `touch` here: `status\r#` is one word to it, while the parser read `\r#` as a comment's start.
    for (const command of ["git status\r# ; touch /tmp/p", "git status\r#\ntouch /tmp/p", "git\rstatus"]) {
      expect(verdict(t, command).ruleId, JSON.stringify(command)).not.toBe("safe");
    }
    expect(verdict(t, "echo\r# ; rm -rf /")).toMatchObject({ action: "deny", ruleId: "rm" });
    expect(verdict(t, "echo\r# ; git push origin main").action).not.toBe("allow");
  });
  it("does not admit a brace expansion whose braces lie in different parts of a word", () => {
    const t = pod();
    t.add("agent.policy.set", "admin", {
      rules: [{ id: "wide", tool: "Bash", input: "git log *|npm test*", action: "allow" }],
    });
    // bash makes `{"",--node-options=…}` two words, the second an option that loads code.
    for (const command of [
      'npm test {"",--node-options=--require=/tmp/x.js}',
      "git log {'',--output=/tmp/x}",
      'git log x{"",}',
    ]) {
      expect(verdict(t, command).ruleId, command).not.toBe("wide");
    }
    expect(verdict(t, 'git log "{a,b}"')).toMatchObject({ action: "allow", ruleId: "wide" });
    expect(verdict(t, "git log {{b}.c,d}").ruleId).not.toBe("wide");
    // Braces closed before a comma or a dot expand nothing: `{}.txt` is a word as it is.
    expect(verdict(t, "git log {}.txt x{a}.y")).toMatchObject({ action: "allow", ruleId: "wide" });
  });
  it("does not admit npm's short forms of options that run other packages' scripts", () => {
    const t = pod();
    t.add("agent.policy.set", "admin", {
      rules: [{ id: "wide", tool: "Bash", input: "npm test*", action: "allow" }],
    });
    for (const command of ["npm test --ws", "npm test --iwr", "npm test -ws"])
      expect(verdict(t, command).ruleId, command).not.toBe("wide");
    // What follows `--` goes to the script's program (node, a test runner): its loading options count too.
    for (const command of [
      "npm test -- --require=/tmp/x.js",
      "npm test -- -r /tmp/x.js",
      // A single-letter option with its value attached.
      "npm test -- -r/tmp/x.js",
      "npm test -- --config=/tmp/evil.mjs",
      "npm test -- --reporter=/tmp/r.js",
      "npm test -- --import /tmp/x.mjs",
    ]) {
      expect(verdict(t, command).ruleId, command).not.toBe("wide");
    }
    expect(verdict(t, "npm test -- --run src/a.test.ts -t 'adds'")).toMatchObject({
      action: "allow",
      ruleId: "wide",
    });
  });
  it("remembers a session's allow as the exact command line, and only a plain one", () => {
    const t = pod();
    t.add("tool.approval.requested", "impl", ask("r1", "git push origin main"), { sessionId: "s1" });
    t.add("tool.approval.answered", "ana", { requestId: "r1", decision: "allow", remember: "session" });
    expect(verdict(t, "git push origin main")).toMatchObject({ action: "allow", scope: "session" });
    for (const command of [
      "git push origin  main",
      "GIT_SSH_COMMAND=x git push origin main",
      "/tmp/evil/git push origin main",
      "env -i git push origin main",
      "git -c a=b push origin main",
    ]) {
      expect(verdict(t, command), command).toMatchObject({ action: "ask", ruleId: "push" });
    }
    t.add("tool.approval.requested", "impl", ask("r2", "GIT_SSH_COMMAND=x git push"), { sessionId: "s1" });
    t.refuses("remember_opaque", "tool.approval.answered", "ana", {
      requestId: "r2",
      decision: "allow",
      remember: "session",
    });
    t.refuses("remember_opaque", "tool.approval.answered", "ana", {
      requestId: "r2",
      decision: "allow",
      remember: "always",
    });
  });
  it("remembers an always allow as each command as written, run plainly", () => {
    const t = pod();
    t.add("tool.approval.requested", "impl", ask("r1", "git push origin main"), { sessionId: "s1" });
    t.add("tool.approval.answered", "ana", { requestId: "r1", decision: "allow", remember: "always" });
    expect(verdict(t, "git push origin main", null)).toMatchObject({ action: "allow", scope: "agent" });
    for (const command of [
      "PATH=/tmp/evil:$PATH git push origin main",
      "./git push origin main",
      "sudo git push origin main",
      "git --receive-pack=/tmp/x push origin main",
    ]) {
      expect(verdict(t, command, null), command).toMatchObject({ action: "ask", ruleId: "push" });
    }
  });
  it("admits a package runner a rule names, run plainly", () => {
    const t = pod();
    t.add("agent.policy.set", "admin", {
      rules: [{ id: "vitest", tool: "Bash", input: "npx vitest run*", action: "allow" }],
    });
    expect(verdict(t, "npx vitest run src")).toMatchObject({ action: "allow", ruleId: "vitest" });
  });
  it("admits a redirection to a file only when the rule writes one", () => {
    const t = pod();
    t.add("agent.policy.set", "admin", {
      rules: [{ id: "log", tool: "Bash", input: "npm test > test.log|npm test", action: "allow" }],
    });
    expect(verdict(t, "npm test > test.log")).toMatchObject({ action: "allow" });
    expect(verdict(t, "npm test>test.log 2>&1")).toMatchObject({ action: "allow" });
    expect(verdict(t, "npm test > ~/.bashrc")).toMatchObject({ action: "allow", scope: "none" });
    expect(verdict(t, "npm test >> test.log")).toMatchObject({ scope: "none" });
  });
});

describe("deny and ask rules see through wrappers and their options", () => {
  it("match the wrapped command, whatever options and values come before it", () => {
    const t = pod();
    for (const command of [
      "sudo -u root rm -rf /",
      "nice -n 5 rm -rf /",
      "timeout -k 1 5 rm -rf /",
      "env -u HOME rm -rf /",
      "ls | xargs -n 1 rm -rf",
      "ionice -c 3 rm -rf x",
      "stdbuf -o L rm -rf x",
      "sudo -E -H -u root -- nice -n 5 timeout -s KILL 9 rm -rf /",
      "find . -exec rm -rf {} +",
      "env -S'rm -rf /'",
      "sudo bash -c 'cd / && rm -rf x'",
      "eval 'rm -rf /'",
      "x=$(rm -rf /)",
      "watch -n 1 'rm -rf /'",
      "ssh host 'rm -rf /'",
      'r"m" -rf /',
      "/bin/rm -rf /",
      "\\rm -rf /",
      "f() { rm -rf /; }",
      "echo hi <<EOF\n$(rm -rf /)\nEOF",
      "trap 'rm -rf /' EXIT",
      "x='a[$(rm -rf /)]'; echo $((x))",
      "git -c alias.x='!rm -rf /' x",
      "git -c core.pager='rm -rf /' log",
      "git --config-env=core.pager=P log",
      "GIT_SSH_COMMAND='rm -rf /' git fetch",
      "npx rm -rf /",
      "npm exec -- rm -rf /",
      "pnpm dlx rm -rf /",
      "yarn exec rm -rf /",
      "bunx rm -rf /",
      "npx --yes -p x rm -rf /",
      "PAGER='rm -rf /' git log",
      "env GIT_PAGER='rm -rf /' git log",
      "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!rm -rf /' git x",
    ])
      expect(verdict(t, command), command).toMatchObject({ action: "deny", ruleId: "rm" });
    for (const command of [
      "npx git push",
      "npm exec -- git push origin main",
      "git -c alias.p=push p origin main",
      "git -c user.name=x -c alias.p=push p",
      "GIT_SSH_COMMAND=x git push origin main",
    ]) {
      expect(verdict(t, command), command).toMatchObject({ action: "ask", ruleId: "push" });
    }
    for (const command of [
      "sudo -u root git push",
      "doas -u root git push origin main",
      "chrt -f 10 git push",
      "taskset -c 1 git push",
    ]) {
      expect(verdict(t, command), command).toMatchObject({ action: "ask", ruleId: "push" });
    }
  });
  it("match when the program cannot be known, rather than miss", () => {
    const t = pod();
    expect(
      verdict(t, "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0='Ann $X' git commit"),
    ).toMatchObject({ action: "allow", scope: "none" });
    expect(
      verdict(
        t,
        "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch$IFS/tmp/p' git status",
      ),
    ).toMatchObject({ action: "deny" });
    for (const command of [
      "$CMD -rf /",
      "$(echo rm) -rf /",
      'eval "$X"',
      'bash -c "$X"',
      'sudo -u "$U" x',
      "echo (",
      'env -S"$X"',
    ]) {
      expect(verdict(t, command), command).toMatchObject({ action: "deny", ruleId: "rm" });
    }
    expect(verdict(t, "echo hello $HOME")).toMatchObject({ action: "allow", scope: "none" });
    expect(verdict(t, `echo '${"x".repeat(MAX_PARSED_CHARS)}'`)).toMatchObject({ action: "deny" });
    // Text to read as commands is read within a budget: past it, the line runs what cannot be known.
    const evals = `sudo ${Array.from({ length: 60 }, () => `eval '${"true; ".repeat(25)}'`).join(" ")}`;
    expect(verdict(t, evals)).toMatchObject({ action: "deny", ruleId: "rm" });
  });
});
