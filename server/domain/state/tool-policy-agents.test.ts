import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import type { AgentKind } from "../vocabulary";
import { evaluateToolCall } from "./tool-policy";

/** One policy, rules in the common vocabulary and in vendors' names, for agents of every kind. */
function pod(rules: object[]) {
  const t = Tape.team();
  t.add("session.started", "impl", { via: "gemini-cli", cwd: "/w/app" }, { sessionId: "s1" });
  t.add("agent.policy.set", "admin", { rules });
  return t;
}
const judge = (t: Tape, agent: AgentKind, tool: string, input: object) =>
  evaluateToolCall(t.state, "impl", "s1", tool, input, "/w/app", agent);

const SHELLS: [AgentKind, string][] = [
  ["claude-code", "Bash"],
  ["codex", "Bash"],
  ["gemini-cli", "run_shell_command"],
];

describe("one rule on a common tool governs every agent's own tool", () => {
  it("a deny on shell catches each agent's shell, and its commands read as Bash's", () => {
    const t = pod([{ id: "no-push", tool: "shell", input: "git push*", action: "deny" }]);
    for (const [agent, tool] of SHELLS) {
      expect(judge(t, agent, tool, { command: "git push origin main" }), tool).toMatchObject({
        action: "deny",
        ruleId: "no-push",
      });
      expect(judge(t, agent, tool, { command: "cd x && sudo -u root git push -f" }), tool).toMatchObject({
        action: "deny",
      });
      expect(judge(t, agent, tool, { command: 'eval "$x"' }), tool).toMatchObject({ action: "deny" });
      expect(judge(t, agent, tool, { command: "git status" }), tool).toMatchObject({ scope: "none" });
    }
  });
  it("a shell call with no command to read meets every deny on shell", () => {
    const t = pod([{ id: "no-push", tool: "shell", input: "git push*", action: "deny" }]);
    expect(judge(t, "gemini-cli", "run_shell_command", { cmd: "git push" })).toMatchObject({
      action: "deny",
    });
  });
  it("an allow on shell admits exactly the programs it names, for every agent", () => {
    const t = pod([
      { id: "status", tool: "shell", input: "git status", action: "allow" },
      { id: "rest", tool: "shell", action: "ask" },
    ]);
    for (const [agent, tool] of SHELLS) {
      expect(judge(t, agent, tool, { command: "git status" }), tool).toMatchObject({ action: "allow" });
      for (const command of [
        "git status && git push",
        "GIT_DIR=x git status",
        "/tmp/git status",
        "git status $(x)",
      ])
        expect(judge(t, agent, tool, { command }), `${tool} ${command}`).toMatchObject({ action: "ask" });
    }
  });
  it("a path rule on write catches Gemini's write_file and Codex's patch, by path where it is", () => {
    const t = pod([{ id: "no-etc", tool: "write|edit", input: "/etc/*", action: "deny" }]);
    expect(judge(t, "gemini-cli", "write_file", { file_path: "/etc/passwd", content: "x" })).toMatchObject({
      action: "deny",
    });
    expect(judge(t, "gemini-cli", "write_file", { file_path: "../../../etc/passwd" })).toMatchObject({
      action: "deny",
    });
    expect(judge(t, "gemini-cli", "replace", { file_path: "/etc/hosts" })).toMatchObject({ action: "deny" });
    const codex = (command: string) => judge(t, "codex", "apply_patch", { command });
    expect(codex("*** Begin Patch\n*** Update File: src/a.ts\n*** Add File: /etc/cron.d/x\n")).toMatchObject({
      action: "deny",
    });
    expect(codex("*** Begin Patch\n*** Update File: src/a.ts\n")).toMatchObject({ scope: "none" });
    expect(codex("garbled")).toMatchObject({ action: "deny" });
    expect(judge(t, "claude-code", "Write", { file_path: "/etc/passwd" })).toMatchObject({ action: "deny" });
    expect(judge(t, "gemini-cli", "write_file", { file_path: "src/a.ts" })).toMatchObject({ scope: "none" });
  });
  it("a deny on read catches the searches that read under its path", () => {
    const t = pod([{ id: "no-etc", tool: "read", input: "/etc/*", action: "deny" }]);
    expect(judge(t, "gemini-cli", "read_file", { file_path: "/etc/shadow" })).toMatchObject({
      action: "deny",
    });
    expect(judge(t, "gemini-cli", "grep_search", { pattern: "root", dir_path: "/etc" })).toMatchObject({
      action: "deny",
    });
    expect(judge(t, "gemini-cli", "read_many_files", { include: ["src/a.ts", "/etc/passwd"] })).toMatchObject(
      {
        action: "deny",
      },
    );
    expect(judge(t, "claude-code", "Grep", { pattern: "root", path: "/" })).toMatchObject({ action: "deny" });
    expect(judge(t, "gemini-cli", "read_file", { file_path: "src/a.ts" })).toMatchObject({ scope: "none" });
    // Two paths given: whichever the agent reads, the rule sees both.
    expect(
      judge(t, "gemini-cli", "read_file", { file_path: "src/a.ts", absolute_path: "/etc/shadow" }),
    ).toMatchObject({ action: "deny" });
    expect(judge(t, "gemini-cli", "glob", { pattern: "*", dir_path: "src", path: "/etc" })).toMatchObject({
      action: "deny",
    });
  });
  it("an allow on read admits a call only when each path it gives is inside it", () => {
    const t = pod([
      { id: "src", tool: "read", input: "src/*", action: "allow" },
      { id: "rest", tool: "read", action: "ask" },
    ]);
    expect(judge(t, "gemini-cli", "read_file", { file_path: "src/a.ts" })).toMatchObject({ action: "allow" });
    expect(
      judge(t, "gemini-cli", "read_file", { file_path: "src/a.ts", absolute_path: "/etc/x" }),
    ).toMatchObject({
      action: "ask",
    });
    expect(judge(t, "gemini-cli", "read_many_files", { include: ["src/a.ts", "src/b.ts"] })).toMatchObject({
      action: "allow",
    });
    expect(judge(t, "gemini-cli", "read_many_files", { include: ["src/a.ts", "../x"] })).toMatchObject({
      action: "ask",
    });
  });
  it("an allow on edit admits a patch only when each file is inside it and every change is an edit", () => {
    const t = pod([
      { id: "src", tool: "edit", input: "src/*", action: "allow" },
      { id: "rest", tool: "write|edit", action: "ask" },
    ]);
    const codex = (...files: string[]) => judge(t, "codex", "apply_patch", { command: files.join("\n") });
    expect(codex("*** Update File: src/a.ts", "*** Update File: src/b.ts")).toMatchObject({
      action: "allow",
    });
    expect(codex("*** Update File: src/a.ts", "*** Update File: README.md")).toMatchObject({ action: "ask" });
    expect(codex("*** Update File: src/a.ts", "*** Add File: src/c.ts")).toMatchObject({ action: "ask" });
    expect(codex("*** Update File: src/a.ts", "*** Move to: src/c.ts")).toMatchObject({ action: "ask" });
    expect(judge(t, "gemini-cli", "replace", { file_path: "src/a.ts" })).toMatchObject({ action: "allow" });
    expect(judge(t, "gemini-cli", "write_file", { file_path: "src/a.ts" })).toMatchObject({ action: "ask" });
  });
});

describe("a rule in an agent's own names stays that agent's", () => {
  it("a rule on Bash or run_shell_command matches exactly that tool", () => {
    const t = pod([
      { id: "bash", tool: "Bash", action: "deny" },
      { id: "gemini", tool: "run_shell_command", input: "rm*", action: "ask" },
    ]);
    expect(judge(t, "codex", "Bash", { command: "ls" })).toMatchObject({ ruleId: "bash" });
    expect(judge(t, "gemini-cli", "run_shell_command", { command: "ls" })).toMatchObject({ scope: "none" });
    expect(judge(t, "gemini-cli", "run_shell_command", { command: "rm -rf /" })).toMatchObject({
      ruleId: "gemini",
    });
  });
  it("a tool no agent calls shell, read, write or edit meets only rules on its own name", () => {
    const t = pod([{ id: "all", tool: "shell|read|write|edit", action: "deny" }]);
    expect(judge(t, "gemini-cli", "web_fetch", { prompt: "https://x" })).toMatchObject({ scope: "none" });
    expect(judge(t, "claude-code", "mcp__gh__issue", {})).toMatchObject({ scope: "none" });
  });
});

describe("a person's remembered allow of another agent's call", () => {
  const ask = (requestId: string, tool: string, input: object, agent: AgentKind) => ({
    requestId,
    toolUseId: `tu-${requestId}`,
    tool,
    input: JSON.stringify(input),
    context: [],
    deadline: { inMinutes: 5, then: "answer", answer: "deny" },
    agent,
  });
  it("always-allow names each of its commands as written, in the agent's own tool", () => {
    const t = pod([{ id: "rest", tool: "shell", action: "ask" }]);
    const call = { command: "npm test && git status", description: "tests" };
    t.add("tool.approval.requested", "impl", ask("r1", "run_shell_command", call, "gemini-cli"), {
      sessionId: "s1",
    });
    expect(t.state.toolApprovals.r1!.agent).toBe("gemini-cli");
    t.add("tool.approval.answered", "ana", { requestId: "r1", decision: "allow", remember: "always" });
    expect(t.state.policies.agents.impl!.rules[0]).toMatchObject({
      tool: "run_shell_command",
      input: "npm test|git status",
      action: "allow",
    });
    expect(judge(t, "gemini-cli", "run_shell_command", { command: "git status" })).toMatchObject({
      action: "allow",
      scope: "agent",
    });
    expect(judge(t, "gemini-cli", "run_shell_command", { command: "git status; rm x" })).toMatchObject({
      action: "ask",
    });
  });
  it("always-allow of a patch names each file where it is", () => {
    const t = pod([{ id: "rest", tool: "edit", action: "ask" }]);
    const input = { command: "*** Update File: src/a.ts\n*** Update File: src/b.ts" };
    t.add("tool.approval.requested", "impl", ask("r2", "apply_patch", input, "codex"), { sessionId: "s1" });
    t.add("tool.approval.answered", "ana", { requestId: "r2", decision: "allow", remember: "always" });
    expect(t.state.policies.agents.impl!.rules[0]).toMatchObject({
      tool: "apply_patch",
      input: "/w/app/src/a.ts|/w/app/src/b.ts",
    });
  });
});
