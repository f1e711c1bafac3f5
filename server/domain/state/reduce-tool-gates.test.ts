import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { deadlineOutcome } from "./deadlines";
import { evaluateToolCall } from "./tool-policy";

const T0 = "2026-11-22T10:00:00.000Z";
const ask = (requestId: string, command: string, then = "deny") => ({
  requestId,
  toolUseId: `tu-${requestId}`,
  tool: "Bash",
  input: JSON.stringify({ command }),
  context: ["Prompt: ship it"],
  deadline: { inMinutes: 5, then: "answer", answer: then },
});

function gated() {
  const t = Tape.team();
  t.add("session.started", "impl", { via: "claude-code", cwd: "/w" }, { sessionId: "s1" });
  t.add("agent.policy.set", "admin", {
    rules: [{ id: "push", tool: "Bash", input: "git push*", action: "ask" }],
  });
  return t;
}

describe("tool policies", () => {
  it("are set by the pod's admins only, for the pod or one of its agents", () => {
    const t = gated();
    t.refuses("admin_only", "agent.policy.set", "ana", { rules: [] });
    t.refuses("admin_only", "agent.policy.set", "impl", { rules: [] });
    t.refuses("unknown_agent", "agent.policy.set", "admin", { agentId: "ana", rules: [] });
    t.add("agent.policy.set", "admin", { rules: [], recordPrompts: false });
    expect(t.state.recordPrompts).toBe(false);
    t.refuses(
      "prompt_text_off",
      "prompt.submitted",
      "impl",
      { text: "secret plan", chars: 11 },
      { sessionId: "s1" },
    );
    t.add("prompt.submitted", "impl", { chars: 11 }, { sessionId: "s1" });
  });
});

describe("an approval", () => {
  it("opens an inbox item with the tool, its input and context, due by the policy's default", () => {
    const t = gated();
    t.now = T0;
    t.add("tool.approval.requested", "impl", ask("r1", "git push"), { sessionId: "s1" });
    const item = t.state.inbox["tool:r1"]!;
    expect(item).toMatchObject({
      kind: "tool_approval",
      options: ["allow", "deny"],
      subject: { kind: "tool", id: "r1" },
      recent: ["Prompt: ship it"],
      due: { then: "answer", answer: "deny" },
    });
    expect(item.text).toContain("git push");
    expect(deadlineOutcome(item)).toEqual({ outcome: "answered", answer: "deny" });
  });
  it("refuses a default the policy does not give, a person asking, and a second ask of one id", () => {
    const t = gated();
    t.refuses("default_is_policy", "tool.approval.requested", "impl", ask("r1", "git push", "allow"), {
      sessionId: "s1",
    });
    t.refuses("agents_only", "tool.approval.requested", "ana", ask("r1", "git push"));
    t.add("tool.approval.requested", "impl", ask("r1", "git push"), { sessionId: "s1" });
    t.refuses("request_exists", "tool.approval.requested", "impl", ask("r1", "git push"), {
      sessionId: "s1",
    });
  });
  it("is answered by an approver once; a viewer or an agent may not", () => {
    const t = gated();
    t.add("tool.approval.requested", "impl", ask("r1", "git push"), { sessionId: "s1" });
    t.refuses("approvers_only", "tool.approval.answered", "vic", { requestId: "r1", decision: "allow" });
    t.refuses("approvers_only", "tool.approval.answered", "impl", { requestId: "r1", decision: "allow" });
    t.add("tool.approval.answered", "ana", { requestId: "r1", decision: "deny", reason: "not on a Friday" });
    expect(t.state.toolApprovals.r1!.answer).toMatchObject({
      decision: "deny",
      by: "ana",
      reason: "not on a Friday",
    });
    expect(t.state.inbox["tool:r1"]).toBeUndefined();
    t.refuses("already_answered", "tool.approval.answered", "ana", { requestId: "r1", decision: "allow" });
  });
  it("remembers an allow for the session, or always (a rule of the agent's policy)", () => {
    const t = gated();
    t.add("tool.approval.requested", "impl", ask("r1", "git push origin main"), { sessionId: "s1" });
    t.add("tool.approval.answered", "ana", { requestId: "r1", decision: "allow", remember: "session" });
    expect(
      evaluateToolCall(t.state, "impl", "s1", "Bash", { command: "git push origin main" }),
    ).toMatchObject({ action: "allow", scope: "session" });
    expect(
      evaluateToolCall(t.state, "impl", "s2", "Bash", { command: "git push origin main" }),
    ).toMatchObject({ action: "ask" });
    t.add("tool.approval.requested", "impl", ask("r2", "git push --tags"), { sessionId: "s1" });
    t.add("tool.approval.answered", "ana", { requestId: "r2", decision: "allow", remember: "always" });
    expect(evaluateToolCall(t.state, "impl", "s9", "Bash", { command: "git push --tags" })).toMatchObject({
      action: "allow",
      scope: "agent",
    });
    expect(
      evaluateToolCall(t.state, "impl", "s9", "Bash", { command: "git push --tags --force" }),
    ).toMatchObject({ action: "ask" });
  });
  it("refuses a wait longer than the policy's, and more than 16 open at once per agent", () => {
    const t = gated();
    t.refuses(
      "deadline_is_policy",
      "tool.approval.requested",
      "impl",
      { ...ask("r0", "git push"), deadline: { inMinutes: 43200, then: "answer", answer: "deny" } },
      { sessionId: "s1" },
    );
    for (let i = 0; i < 16; i++)
      t.add("tool.approval.requested", "impl", ask(`r${i}`, `git push ${i}`), { sessionId: "s1" });
    t.refuses("too_many_open_approvals", "tool.approval.requested", "impl", ask("r16", "git push"), {
      sessionId: "s1",
    });
    t.add("tool.approval.answered", "ana", { requestId: "r0", decision: "deny" });
    t.add("tool.approval.requested", "impl", ask("r16", "git push"), { sessionId: "s1" });
  });
  it("remembers nothing of a call it cannot see through: allow it once", () => {
    const t = gated();
    t.add("tool.approval.requested", "impl", ask("r1", "git push $(cat target)"), { sessionId: "s1" });
    t.refuses("remember_opaque", "tool.approval.answered", "ana", {
      requestId: "r1",
      decision: "allow",
      remember: "always",
    });
    t.add(
      "tool.approval.requested",
      "impl",
      { ...ask("r2", "x"), input: '{"command":"git push' },
      { sessionId: "s1" },
    );
    t.refuses("call_not_whole", "tool.approval.answered", "ana", {
      requestId: "r2",
      decision: "allow",
      remember: "session",
    });
    t.refuses("call_not_whole", "tool.approval.answered", "ana", { requestId: "r2", decision: "allow" });
    t.add("tool.approval.answered", "ana", { requestId: "r2", decision: "deny" });
    // Cut inside a text that is not the subject (a Write's content): the path reads whole, but what it
    // writes was not shown, so it may be denied, not allowed.
    const write = {
      requestId: "r3",
      toolUseId: "tu-r3",
      tool: "Write",
      input: JSON.stringify({
        file_path: "/w/README.md",
        content: "x… [cut by podwatch] (90000 characters)",
      }),
      deadline: { inMinutes: 5, then: "answer", answer: "deny" },
    };
    t.add("tool.approval.requested", "impl", write, { sessionId: "s1" });
    t.refuses("call_not_whole", "tool.approval.answered", "ana", { requestId: "r3", decision: "allow" });
    t.add("tool.approval.answered", "ana", { requestId: "r3", decision: "deny" });
    const padded = {
      ...write,
      requestId: "r4",
      tool: "Bash",
      input: JSON.stringify({ command: "echo hi… [cut by podwatch] (30000 characters)" }),
    };
    t.add("tool.approval.requested", "impl", padded, { sessionId: "s1" });
    t.refuses("call_not_whole", "tool.approval.answered", "ana", { requestId: "r4", decision: "allow" });
  });
  it("an always-allowed compound call allows each of its commands, never more", () => {
    const t = gated();
    t.add("tool.approval.requested", "impl", ask("r1", "cd app && git push origin main"), {
      sessionId: "s1",
    });
    t.add("tool.approval.answered", "ana", { requestId: "r1", decision: "allow", remember: "always" });
    expect(
      evaluateToolCall(t.state, "impl", "s1", "Bash", { command: "git push origin main" }),
    ).toMatchObject({ action: "allow", scope: "agent" });
    expect(
      evaluateToolCall(t.state, "impl", "s1", "Bash", {
        command: "cd app && git push origin main && rm -rf /",
      }),
    ).toMatchObject({ action: "ask" });
  });
  it("a session's allows are its own agent's", () => {
    const t = gated();
    t.add("tool.approval.requested", "impl", ask("r1", "git push origin main"), { sessionId: "s1" });
    t.add("tool.approval.answered", "ana", { requestId: "r1", decision: "allow", remember: "session" });
    expect(
      evaluateToolCall(t.state, "impl", "s1", "Bash", { command: "git push origin main" }),
    ).toMatchObject({ scope: "session" });
    expect(evaluateToolCall(t.state, "rev", "s1", "Bash", { command: "git push origin main" })).toMatchObject(
      { action: "ask" },
    );
  });
  it("takes the deadline's default, as podwatch, once it passed", () => {
    const t = gated();
    t.now = T0;
    t.add("tool.approval.requested", "impl", ask("r1", "git push"), { sessionId: "s1" });
    t.now = "2026-11-22T10:06:00.000Z";
    t.add("deadline.passed", "podwatch", {
      itemId: "tool:r1",
      subject: { kind: "tool", id: "r1" },
      outcome: "answered",
      answer: "deny",
    });
    expect(t.state.toolApprovals.r1!.answer).toMatchObject({
      decision: "deny",
      by: "podwatch",
      byDeadline: true,
    });
  });
});

describe("sessions", () => {
  it("are opened by whatever arrives first and count prompts, tool calls and usage", () => {
    const t = Tape.team();
    t.add("tool.call", "impl", { toolUseId: "a", tool: "Bash", phase: "started" }, { sessionId: "s1" });
    t.add(
      "tool.call",
      "impl",
      { toolUseId: "a", tool: "Bash", phase: "failed", error: "exit 1" },
      { sessionId: "s1" },
    );
    t.add(
      "usage.reported",
      "impl",
      { model: "m", inputTokens: 10, outputTokens: 5, costUsd: 0.01 },
      { sessionId: "s1" },
    );
    t.add("usage.reported", "impl", { model: "m", inputTokens: 1, outputTokens: 1 }, { sessionId: "s1" });
    expect(t.state.sessions.s1).toMatchObject({
      agentId: "impl",
      toolCalls: 1,
      failedToolCalls: 1,
      model: "m",
    });
    expect(t.state.usage.impl!.m).toMatchObject({
      inputTokens: 11,
      outputTokens: 6,
      costUsd: 0.01,
      reports: 2,
    });
    t.refuses(
      "agents_only",
      "tool.call",
      "ana",
      { toolUseId: "b", tool: "Bash", phase: "started" },
      { sessionId: "s1" },
    );
  });
  it("keep each agent's 20 most recently active: one agent's many sessions never push out another's", () => {
    const t = Tape.team();
    t.add("session.started", "rev", { via: "claude-code", cwd: "/w" }, { sessionId: "theirs" });
    for (let i = 0; i < 55; i++)
      t.add("session.started", "impl", { via: "claude-code" }, { sessionId: `s${i}` });
    expect(Object.values(t.state.sessions).filter((x) => x.agentId === "impl")).toHaveLength(20);
    expect(t.state.sessions.s0).toBeUndefined();
    expect(t.state.sessions.s54).toBeDefined();
    expect(t.state.sessions.theirs).toMatchObject({ agentId: "rev", cwd: "/w" });
  });
  it("belong to their agent: another cannot move its folder, end it or report in it", () => {
    const t = Tape.team();
    t.add("session.started", "rev", { via: "claude-code", cwd: "/w" }, { sessionId: "theirs" });
    t.refuses(
      "session_not_yours",
      "session.started",
      "impl",
      { via: "claude-code", cwd: "/" },
      { sessionId: "theirs" },
    );
    t.refuses("session_not_yours", "session.ended", "impl", {}, { sessionId: "theirs" });
    t.refuses(
      "session_not_yours",
      "tool.call",
      "impl",
      { toolUseId: "x", tool: "Bash", phase: "started" },
      { sessionId: "theirs" },
    );
  });
});
