// Steering against the real server and database: a person's message or interrupt, sent through
// POST /sessions/{sessionId}/steer, reaches the agent at its next hook in that agent's own words
// (Claude Code's http hook, Codex's and Gemini CLI's doors), is marked delivered once however
// often the hook is retried, and an interrupt denies the next tool call before any rule is asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

const PASSWORD = "a long enough password";
const SESSION = "9d3f6a2e-1b4c-4e8a-9f70-2c5d8e1a7b64";

type Ev = { type: string; actor: string; body: Record<string, any>; meta?: { sessionId?: string } };

describe.each(testProviders())("steering a session on %s", (provider) => {
  let s: TestServer;
  let person: { cookie: string };
  beforeAll(async () => {
    s = await startTestServer(provider);
    expect(
      (
        await api(s.url, "POST", "/api/v1/users", {
          email: "pia@example.com",
          name: "Pia",
          password: PASSWORD,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api(s.url, "POST", "/api/v1/users", {
          email: "vic@example.com",
          name: "Vic",
          password: PASSWORD,
        })
      ).status,
    ).toBe(201);
    person = await signIn("pia@example.com");
  });
  afterAll(() => s?.stop());

  async function signIn(email: string) {
    const res = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    return {
      cookie: res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; "),
    };
  }
  const join = async (podId: string, email: string, access: string) =>
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId: email,
          kind: "human",
          displayName: email.split("@")[0],
          roles: [access],
        })
      ).status,
    ).toBe(201);
  const pod = async (name: string, agent: string) => {
    const { podId, tokens } = await agentPod(s.url, name, { [agent]: "implementer" });
    await join(podId, "pia@example.com", "approver");
    return { podId, token: tokens[agent]! };
  };
  const hook = async (door: string, token: string, body: Record<string, unknown>) => {
    const res = await fetch(`${s.url}/api/v1/hooks/${door}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ session_id: SESSION, cwd: "/home/dev/shop", ...body }),
    });
    expect(res.status).toBe(200);
    return res.json();
  };
  const steer = (podId: string, steerId: string, act: string, text: string, as: object | null = person) =>
    api(s.url, "POST", `/api/v1/pods/${podId}/sessions/${SESSION}/steer`, { steerId, act, text }, as as any);
  const events = async (podId: string): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events;
  const delivered = async (podId: string) =>
    (await events(podId))
      .filter((e) => e.type === "session.steer.delivered")
      .map((e) => [e.actor, e.body.steerId, e.body.via]);

  const bash = (event: string, id: string, command = "npm test") => ({
    hook_event_name: event,
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: id,
    ...(event === "PostToolUse" ? { tool_response: { stdout: "ok" } } : {}),
  });

  it("Claude Code: a message rides the next PostToolUse as context, once, and a retry carries it again", async () => {
    const { podId, token } = await pod("steer claude", "claude");
    expect(
      await hook("claude-code", token, { hook_event_name: "UserPromptSubmit", prompt: "add paging" }),
    ).toEqual({});
    const sent = await steer(podId, "m-1", "message", "Write the tests first");
    expect(sent.status).toBe(201);
    // The same steer again (a double click, a lost answer): stored once, the same seq.
    expect((await steer(podId, "m-1", "message", "Write the tests first")).body.seq).toBe(sent.body.seq);
    // A tool call about to run does not carry a message: only what can add to the model's reading does.
    expect(await hook("claude-code", token, bash("PreToolUse", "t1"))).toEqual({});
    const answer = await hook("claude-code", token, bash("PostToolUse", "t1"));
    expect(answer).toEqual({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext: "pia says, from podwatch: Write the tests first",
      },
    });
    // Claude Code retrying the same hook gets the same words; the tape says delivered once.
    expect(await hook("claude-code", token, bash("PostToolUse", "t1"))).toEqual(answer);
    expect(await hook("claude-code", token, bash("PostToolUse", "t2"))).toEqual({});
    expect(await delivered(podId)).toEqual([["claude", "m-1", "PostToolUse"]]);
    const steered = (await events(podId)).find((e) => e.type === "session.steered")!;
    expect([steered.actor, steered.body]).toEqual([
      "pia@example.com",
      { steerId: "m-1", sessionId: SESSION, act: "message", text: "Write the tests first" },
    ]);
    // The session's view shows it delivered.
    const view = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(view.sessions[0].steers[0]).toMatchObject({ steerId: "m-1", delivered: { via: "PostToolUse" } });
  });

  it("Claude Code: at Stop a message blocks the stop with the message as the reason to go on", async () => {
    const { podId, token } = await pod("steer stop", "claude");
    await hook("claude-code", token, { hook_event_name: "UserPromptSubmit", prompt: "go" });
    await steer(podId, "m-2", "resume", "Now do the same for refunds");
    expect(
      await hook("claude-code", token, { hook_event_name: "Stop", last_assistant_message: "Done." }),
    ).toEqual({
      decision: "block",
      reason: "pia says, from podwatch: Now do the same for refunds",
    });
  });

  it("Claude Code: an interrupt denies the next tool call before any rule asks, and ends the turn", async () => {
    const { podId, token } = await pod("steer interrupt", "claude");
    // Every Bash call would wait for a person: the interrupt must not wait behind that.
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "agent.policy.set",
          actor: "ops-admin",
          body: { rules: [{ id: "ask", tool: "Bash", action: "ask" }], ask: { minutes: 5, then: "deny" } },
        })
      ).status,
    ).toBe(201);
    await hook("claude-code", token, { hook_event_name: "UserPromptSubmit", prompt: "go" });
    await steer(podId, "i-1", "interrupt", "Stop: the migration is wrong");
    const why = "pia interrupted this turn from podwatch: Stop: the migration is wrong";
    expect(await hook("claude-code", token, bash("PreToolUse", "t9", "npm run migrate"))).toEqual({
      continue: false,
      stopReason: why,
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: why,
      },
    });
    const tape = await events(podId);
    expect(tape.filter((e) => e.type === "tool.approval.requested")).toEqual([]);
    expect(tape.find((e) => e.type === "tool.call")!.body.gate).toEqual({
      decision: "deny",
      by: "person",
      reason: why,
    });
    expect(await delivered(podId)).toEqual([["claude", "i-1", "PreToolUse"]]);
    // At a hook that is no tool call, an interrupt ends the turn.
    await steer(podId, "i-2", "interrupt", "Enough");
    expect(await hook("claude-code", token, bash("PostToolUse", "t8"))).toEqual({
      continue: false,
      stopReason: "pia interrupted this turn from podwatch: Enough",
    });
  });

  it("Claude Code: a pending interrupt stops a subagent's calls too; the parent's own next hook takes it", async () => {
    const { podId, token } = await pod("steer subagent", "claude");
    await hook("claude-code", token, { hook_event_name: "UserPromptSubmit", prompt: "go" });
    await steer(podId, "i-sub", "interrupt", "Not that way");
    const why = "pia interrupted this turn from podwatch: Not that way";
    // Work inside a Task subagent carries agent_id: its calls are the child session's.
    const inSubagent = {
      ...bash("PreToolUse", "t-sub", "rm -rf dist"),
      agent_id: "a1",
      agent_type: "general-purpose",
    };
    for (let i = 0; i < 2; i++)
      expect(await hook("claude-code", token, inSubagent)).toMatchObject({
        hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: why },
      });
    const denied = (await events(podId)).filter((e) => e.type === "tool.call");
    expect(denied.map((e) => [e.meta?.sessionId, e.body.gate])).toEqual([
      [`${SESSION}/a1`, { decision: "deny", by: "person", reason: why }],
    ]);
    expect(await delivered(podId)).toEqual([]);
    expect(await hook("claude-code", token, bash("PostToolUse", "t-task"))).toEqual({
      continue: false,
      stopReason: why,
    });
    expect(await delivered(podId)).toEqual([["claude", "i-sub", "PostToolUse"]]);
  });

  it("Codex: context at PostToolUse, block at Stop; an interrupt denies each call (a deny alone) until Stop delivers it", async () => {
    const { podId, token } = await pod("steer codex", "codex");
    await hook("codex", token, {
      hook_event_name: "UserPromptSubmit",
      prompt: "go",
      turn_id: "t",
      transcript_path: null,
    });
    await steer(podId, "c-1", "message", "Use the staging database");
    expect(await hook("codex", token, { ...bash("PostToolUse", "call_1"), tool_response: "" })).toEqual({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext: "pia says, from podwatch: Use the staging database",
      },
    });
    await steer(podId, "c-2", "message", "And log it");
    expect(await hook("codex", token, { hook_event_name: "Stop", last_assistant_message: "done" })).toEqual({
      decision: "block",
      reason: "pia says, from podwatch: And log it",
    });
    await steer(podId, "c-3", "interrupt", "Halt");
    const why = "pia interrupted this turn from podwatch: Halt";
    const deny = {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: why,
      },
    };
    // Codex's model may follow a denied call with another: each is denied while the turn goes on.
    expect(await hook("codex", token, bash("PreToolUse", "call_2"))).toEqual(deny);
    expect(await hook("codex", token, bash("PreToolUse", "call_3", "rm -rf dist"))).toEqual(deny);
    const denied = (await events(podId)).filter((e) => e.type === "tool.call" && e.body.gate);
    expect(denied.map((e) => [e.body.toolUseId, e.body.gate])).toEqual([
      ["call_2", { decision: "deny", by: "person", reason: why }],
      ["call_3", { decision: "deny", by: "person", reason: why }],
    ]);
    expect((await delivered(podId)).map((d) => d[1])).toEqual(["c-1", "c-2"]);
    // The turn's end delivers it.
    expect(
      await hook("codex", token, { hook_event_name: "Stop", last_assistant_message: "stopped" }),
    ).toEqual({ continue: false, stopReason: why });
    expect(await delivered(podId)).toEqual([
      ["codex", "c-1", "PostToolUse"],
      ["codex", "c-2", "Stop"],
      ["codex", "c-3", "Stop"],
    ]);
  });

  it("Gemini CLI: context at AfterTool and BeforeAgent, AfterAgent denied with the message, BeforeTool denied and stopped", async () => {
    const { podId, token } = await pod("steer gemini", "gemini");
    const shell = { tool_name: "run_shell_command", tool_input: { command: "ls" } };
    await hook("gemini-cli", token, { hook_event_name: "BeforeAgent", prompt: "go" });
    await steer(podId, "g-1", "message", "Skip the docs");
    expect(
      await hook("gemini-cli", token, {
        hook_event_name: "AfterTool",
        ...shell,
        tool_response: { llmContent: "a b" },
        podwatch_hook_id: "1",
      }),
    ).toEqual({ hookSpecificOutput: { additionalContext: "pia says, from podwatch: Skip the docs" } });
    await steer(podId, "g-2", "message", "Also the changelog");
    expect(
      await hook("gemini-cli", token, {
        hook_event_name: "AfterAgent",
        prompt: "go",
        prompt_response: "done",
      }),
    ).toEqual({
      decision: "deny",
      reason: "pia says, from podwatch: Also the changelog",
    });
    await steer(podId, "g-3", "message", "Next prompt context");
    expect(
      await hook("gemini-cli", token, {
        hook_event_name: "BeforeAgent",
        prompt: "again",
        podwatch_hook_id: "2",
      }),
    ).toEqual({
      hookSpecificOutput: { additionalContext: "pia says, from podwatch: Next prompt context" },
    });
    await steer(podId, "g-4", "interrupt", "Stop now");
    const why = "pia interrupted this turn from podwatch: Stop now";
    expect(
      await hook("gemini-cli", token, { hook_event_name: "BeforeTool", ...shell, podwatch_hook_id: "3" }),
    ).toEqual({
      decision: "deny",
      reason: why,
      continue: false,
      stopReason: why,
    });
  });

  it("only the pod's approvers steer; what waits is capped with a clear 409, and nothing half-written", async () => {
    const { podId, token } = await pod("steer who", "claude");
    await hook("claude-code", token, { hook_event_name: "UserPromptSubmit", prompt: "go" });
    await join(podId, "vic@example.com", "viewer");
    const vic = await signIn("vic@example.com");
    expect((await steer(podId, "v-1", "message", "hi", vic)).status).toBe(403);
    expect((await steer(podId, "a-1", "message", "hi", { token })).status).toBe(403);
    expect((await steer(podId, "n-1", "message", "hi", null)).status).toBe(401);
    // A site administrator who is not one of the pod's people is told so, not "something went wrong".
    await api(s.url, "POST", "/api/v1/users", {
      email: "sam@example.com",
      name: "Sam",
      password: PASSWORD,
      isAdmin: true,
    });
    const sam = await steer(podId, "s-1", "message", "hi", await signIn("sam@example.com"));
    expect([sam.status, sam.body.error.code]).toEqual([403, "not_a_member"]);
    expect(
      (
        await api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/sessions/nope/steer`,
          { steerId: "x", act: "message", text: "hi" },
          person,
        )
      ).body.error.code,
    ).toBe("unknown_session");
    expect((await steer(podId, "e-1", "message", "   ")).status).toBe(400);
    for (let i = 0; i < 5; i++)
      expect((await steer(podId, `p-${i}`, "message", `note ${i}`)).status).toBe(201);
    const late = await steer(podId, "p-late", "message", "one more");
    expect([late.status, late.body.error.code]).toEqual([409, "too_many_steers"]);
    expect((await events(podId)).filter((e) => e.type === "session.steered")).toHaveLength(5);
  });
});
