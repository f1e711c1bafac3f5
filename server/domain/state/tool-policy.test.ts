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
    expect(toolSubject("Write", { file_path: "/w/app/src/../../etc/passwd" }, "/w/app")).toBe("/w/etc/passwd");
    expect(toolSubject("Edit", { file_path: "src/./b.ts" }, "/w/app")).toBe("src/b.ts");
    expect(toolSubject("WebFetch", { url: "https://example.com", prompt: "p" })).toBe("https://example.com");
    expect(toolSubject("mcp__x__y", { b: 1, a: { d: 1, c: 2 } })).toBe('{"a":{"c":2,"d":1},"b":1}');
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
    expect(evaluateToolCall(s, "impl", "s1", "Bash", { command: "git push origin main" })).toMatchObject({ action: "ask", ruleId: "push", scope: "pod" });
    expect(evaluateToolCall(s, "impl", "s1", "Bash", { command: "cd x && git push" })).toMatchObject({ action: "ask", ruleId: "push" });
    expect(evaluateToolCall(s, "impl", "s1", "Bash", { command: "npm test" })).toMatchObject({ action: "allow", scope: "none" });
    expect(evaluateToolCall(s, "impl", "s1", "Write", { file_path: "/w/app/src/a.ts" })).toMatchObject({ action: "allow" });
    expect(evaluateToolCall(s, "impl", "s1", "Write", { file_path: "/w/app/README.md" })).toMatchObject({ action: "ask", ruleId: "src-only" });
    expect(evaluateToolCall(s, "impl", "s1", "Write", { file_path: "/w/app/src/../x" })).toMatchObject({ action: "ask" });
    expect(evaluateToolCall(s, "impl", "s1", "mcp__gh__issue", {})).toMatchObject({ action: "deny", ruleId: "no-mcp" });
  });
  it("tries the agent's rules before the pod's", () => {
    const t = pod();
    t.add("agent.policy.set", "admin", { agentId: "impl", rules: [{ id: "trusted-push", tool: "Bash", input: "git push origin feature*", action: "allow" }] });
    expect(evaluateToolCall(t.state, "impl", "s1", "Bash", { command: "git push origin feature-x" })).toMatchObject({ action: "allow", scope: "agent" });
    expect(evaluateToolCall(t.state, "rev", "s1", "Bash", { command: "git push origin feature-x" })).toMatchObject({ action: "ask", scope: "pod" });
  });
});
