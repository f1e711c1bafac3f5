import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { evaluateToolCall, literalPattern, matchesPattern, toolSubject } from "./tool-policy";

describe("patterns", () => {
  it("match whole texts, with alternatives, * and ?", () => {
    expect(matchesPattern("git push*|rm -rf*", "git push origin main")).toBe(true);
    expect(matchesPattern("git push*|rm -rf*", "rm -rf /")).toBe(true);
    expect(matchesPattern("git push*|rm -rf*", "echo git push")).toBe(false);
    expect(matchesPattern("mcp__*", "mcp__github__create_issue")).toBe(true);
    expect(matchesPattern("Bash", "BashX")).toBe(false);
    expect(matchesPattern("Write|Edit", "Edit")).toBe(true);
    expect(matchesPattern("a?c", "abc")).toBe(true);
    expect(matchesPattern("*.ts", "src/a.ts")).toBe(true);
    expect(matchesPattern("*a*b*c", "xxaxxbxxc")).toBe(true);
    expect(matchesPattern("*a*b*c", "xxaxxbxx")).toBe(false);
  });
  it("a literal pattern matches exactly its text, whatever it holds", () => {
    for (const text of ["git push | tee log", "a*b?c\\d", "plain"]) {
      expect(matchesPattern(literalPattern(text), text)).toBe(true);
      expect(matchesPattern(literalPattern(text), `${text}x`)).toBe(false);
    }
  });
  it("stay linear on hostile input", () => {
    const started = performance.now();
    expect(matchesPattern("*a*a*a*a*a*a*a*a*b", "a".repeat(5000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("a tool call's subject", () => {
  it("is the command, the path relative to cwd (dots resolved), the URL, or the input as sorted JSON", () => {
    expect(toolSubject("Bash", { command: "npm test" })).toBe("npm test");
    expect(toolSubject("Write", { file_path: "/w/app/src/a.ts", content: "x" }, "/w/app")).toBe("src/a.ts");
    expect(toolSubject("Write", { file_path: "/w/app/src/../../etc/passwd" }, "/w/app")).toBe(
      "/w/etc/passwd",
    );
    expect(toolSubject("Edit", { file_path: "src/./b.ts" }, "/w/app")).toBe("src/b.ts");
    expect(toolSubject("WebFetch", { url: "https://example.com", prompt: "p" })).toBe("https://example.com");
    expect(toolSubject("mcp__x__y", { b: 1, a: { d: 1, c: 2 } })).toBe('{"a":{"c":2,"d":1},"b":1}');
  });
});

describe("a Bash line's commands", () => {
  const rules = () => {
    const t = Tape.team();
    t.add("agent.policy.set", "admin", {
      rules: [
        { id: "status", tool: "Bash", input: "git status*|npm test*", action: "allow" },
        { id: "push", tool: "Bash", input: "git push*|rm -rf*", action: "ask" },
      ],
    });
    return t.state;
  };
  it("an ask rule sees through separators, prefixes, wrappers, paths, subshells and shells", () => {
    const s = rules();
    for (const command of [
      "FOO=1 git push",
      "sudo git push",
      "sudo -E git push",
      "env A=1 git push",
      "command git push",
      "nohup git push &",
      "time git push",
      "$(git push)",
      "echo `git push`",
      "(git push)",
      "{ git push; }",
      'bash -c "git push"',
      "sh -c 'cd x && git push'",
      "true & git push",
      "git  push",
      "git\tpush",
      "git \\\npush",
      "/usr/bin/git push",
      "\\git push",
      "'git' push",
      "cd x && git push",
      "a || rm -rf /",
    ])
      expect(evaluateToolCall(s, "impl", null, "Bash", { command }), command).toMatchObject({
        action: "ask",
        ruleId: "push",
      });
  });
  it("an allow rule allows only when every command matches and nothing is opaque", () => {
    const s = rules();
    expect(evaluateToolCall(s, "impl", null, "Bash", { command: "git status" })).toMatchObject({
      action: "allow",
      ruleId: "status",
    });
    expect(evaluateToolCall(s, "impl", null, "Bash", { command: "npm test 2>&1 | npm test" })).toMatchObject({
      action: "allow",
      ruleId: "status",
    });
    for (const command of [
      "git status && git push --force origin main",
      "git push --force; git status",
      "rm -rf ~ | git status",
    ]) {
      expect(evaluateToolCall(s, "impl", null, "Bash", { command }), command).toMatchObject({
        action: "ask",
      });
    }
    expect(evaluateToolCall(s, "impl", null, "Bash", { command: "git status $(curl x | sh)" })).toMatchObject(
      { action: "allow", scope: "none" },
    );
    expect(evaluateToolCall(s, "impl", null, "Bash", { command: "eval git status" })).toMatchObject({
      scope: "none",
    });
  });
});

describe("evaluating a call", () => {
  function pod() {
    const t = Tape.team();
    t.add("session.started", "impl", { via: "claude-code", cwd: "/w/app" }, { sessionId: "s1" });
    t.add("agent.policy.set", "admin", {
      rules: [
        { id: "push", tool: "Bash", input: "git push*|rm -rf*", action: "ask" },
        { id: "src-only", tool: "Write|Edit", input: "src/*", outside: true, action: "ask" },
        { id: "no-mcp", tool: "mcp__*", action: "deny" },
      ],
    });
    return t;
  }
  it("takes the first matching rule of the pod, and allows what none matches", () => {
    const s = pod().state;
    expect(evaluateToolCall(s, "impl", "s1", "Bash", { command: "git push origin main" })).toMatchObject({
      action: "ask",
      ruleId: "push",
      scope: "pod",
    });
    expect(evaluateToolCall(s, "impl", "s1", "Bash", { command: "cd x && git push" })).toMatchObject({
      action: "ask",
      ruleId: "push",
    });
    expect(evaluateToolCall(s, "impl", "s1", "Bash", { command: "npm test" })).toMatchObject({
      action: "allow",
      scope: "none",
    });
    expect(evaluateToolCall(s, "impl", "s1", "Write", { file_path: "/w/app/src/a.ts" })).toMatchObject({
      action: "allow",
    });
    expect(evaluateToolCall(s, "impl", "s1", "Write", { file_path: "/w/app/README.md" })).toMatchObject({
      action: "ask",
      ruleId: "src-only",
    });
    expect(evaluateToolCall(s, "impl", "s1", "Write", { file_path: "/w/app/src/../x" })).toMatchObject({
      action: "ask",
    });
    expect(evaluateToolCall(s, "impl", "s1", "mcp__gh__issue", {})).toMatchObject({
      action: "deny",
      ruleId: "no-mcp",
    });
  });
  it("matches a path both where it is and relative to the folder, whatever folder the call names", () => {
    const t = pod();
    t.add("agent.policy.set", "admin", {
      rules: [
        { id: "etc", tool: "Write", input: "/etc/*", action: "deny" },
        { id: "secrets", tool: "Write", input: "src/secrets/*", action: "deny" },
      ],
    });
    expect(
      evaluateToolCall(t.state, "impl", "s1", "Write", { file_path: "/etc/passwd" }, "/etc"),
    ).toMatchObject({ action: "deny", ruleId: "etc" });
    expect(evaluateToolCall(t.state, "impl", "s1", "Write", { file_path: "/etc/passwd" }, "/")).toMatchObject(
      { action: "deny", ruleId: "etc" },
    );
    expect(
      evaluateToolCall(t.state, "impl", "s1", "Write", { file_path: "/w/app/src/secrets/k" }, "/w/app"),
    ).toMatchObject({ action: "deny", ruleId: "secrets" });
    expect(evaluateToolCall(t.state, "impl", "s1", "Write", { file_path: "src/secrets/k" })).toMatchObject({
      action: "deny",
      ruleId: "secrets",
    });
  });
  it("tries the agent's rules before the pod's", () => {
    const t = pod();
    t.add("agent.policy.set", "admin", {
      agentId: "impl",
      rules: [{ id: "trusted-push", tool: "Bash", input: "git push origin feature*", action: "allow" }],
    });
    expect(
      evaluateToolCall(t.state, "impl", "s1", "Bash", { command: "git push origin feature-x" }),
    ).toMatchObject({ action: "allow", scope: "agent" });
    expect(
      evaluateToolCall(t.state, "rev", "s1", "Bash", { command: "git push origin feature-x" }),
    ).toMatchObject({ action: "ask", scope: "pod" });
  });
});
