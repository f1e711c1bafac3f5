// POST /api/v1/hooks/claude-code against the real server and database: every recorded
// hook payload lands as its event, retries and replays store once, prompt text stays out when
// the pod says so, and gated calls are allowed or denied by a rule, a person or the deadline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { HOOK_FIXTURES, readHookFixture } from "./fixtures";
import { heldCalls } from "../http/hook-routes";
import { eventually, sleep } from "../testing/eventually";

type Ev = {
  id: string;
  type: string;
  actor: string;
  body: Record<string, any>;
  meta: { sessionId?: string } | null;
};

describe.each(testProviders())("Claude Code hook route on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => void (s = await startTestServer(provider, { PODWATCH_DEADLINE_MIN_MS: "100" }))); // test only: deadlines seconds ahead
  afterAll(() => s?.stop());

  const hook = async (token: string, body: unknown, query = "", signal?: AbortSignal) => {
    const res = await fetch(`${s.url}/api/v1/hooks/claude-code${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
      signal,
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? JSON.parse(text) : null,
      unreachable: res.headers.get("x-podwatch-unreachable"),
      retryAfter: res.headers.get("retry-after"),
    };
  };
  const events = async (podId: string): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events;
  const ofType = async (podId: string, type: string) => (await events(podId)).filter((e) => e.type === type);
  const pod = async (name: string) => {
    const { podId, tokens } = await agentPod(s.url, name, { claude: "implementer" });
    return { podId, token: tokens["claude"]! };
  };
  const setPolicy = async (podId: string, body: object) =>
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "agent.policy.set",
          actor: "ops-admin",
          body,
        })
      ).status,
    ).toBe(201);
  const answer = async (podId: string, requestId: string, decision: "allow" | "deny", reason?: string) =>
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "tool.approval.answered",
          actor: "ops-admin",
          body: { requestId, decision, reason },
        })
      ).status,
    ).toBe(201);
  const GATED = {
    rules: [
      { id: "push", tool: "Bash", input: "git push*", action: "ask" },
      { id: "no-rm", tool: "Bash", input: "rm -rf*", action: "deny" },
      { id: "ls-ok", tool: "Bash", input: "ls*", action: "allow" },
    ],
    ask: { minutes: 5, then: "deny" },
    unreachable: "closed",
  };
  const push = (toolUseId: string, command = "git push origin feature/orders-pagination") => ({
    ...readHookFixture("pre-tool-use-git-push"),
    tool_use_id: toolUseId,
    tool_input: { command },
  });

  it("every recorded hook lands as its event, spoken by the token's member in the hook's session", async () => {
    const { podId, token } = await pod("whole-session");
    for (const name of HOOK_FIXTURES) {
      const r = await hook(token, readHookFixture(name));
      expect([name, r.status, r.body, r.unreachable]).toEqual([name, 200, {}, "open"]);
    }
    const everything = (await events(podId)).filter((e) => e.actor === "claude");
    const main = "5f2b8c1e-9a47-4d3b-b6a2-7c0e1d9f4a31";
    const tape = everything.filter((e) => e.meta?.sessionId === main);
    expect(
      tape.map((e) => (e.type === "tool.call" ? `tool.call:${e.body.tool}:${e.body.phase}` : e.type)),
    ).toEqual([
      "session.started",
      "prompt.submitted",
      "tool.call:Read:started",
      "tool.call:Read:succeeded",
      "tool.call:Bash:started",
      "tool.call:Bash:succeeded",
      "tool.call:Bash:failed",
      "tool.call:Bash:started",
      "agent.notified",
      "subagent",
      "subagent",
      "session.compacted",
      "checkpoint",
      "note",
      "session.ended",
    ]);
    // The subagent's start and stop also open and close its own session, under this one.
    expect(
      everything.filter((e) => e.meta?.sessionId !== main).map((e) => [e.meta?.sessionId, e.type]),
    ).toEqual([
      [`${main}/a7c41e09`, "session.started"],
      [`${main}/a7c41e09`, "session.ended"],
    ]);
    expect(tape[0]!.body).toMatchObject({
      via: "claude-code",
      model: "claude-sonnet-4-5-20250929",
      cwd: "/home/dev/shop-api",
    });
    expect(tape[3]!.body).toMatchObject({
      toolUseId: "toolu_01RfUq8mXb3nT2kLw9sVd4Ae",
      output: "/home/dev/shop-api/src/routes/orders.ts (8 lines)",
    });
    expect(tape[5]!.body.durationMs).toBe(2315);
    expect(tape[12]!.body).toMatchObject({
      next: ["Document the new query parameters in docs/api.md"],
      blocked: ["Pushing the branch needs approval"],
    });
    const state = (await s.app.store.readState(podId))!;
    expect(state.sessions["5f2b8c1e-9a47-4d3b-b6a2-7c0e1d9f4a31"]).toMatchObject({
      via: "claude-code",
      prompts: 1,
      toolCalls: 3,
      failedToolCalls: 1,
      compactions: 1,
      subagents: 1,
    });

    // Claude Code retrying, and the command hook replaying its spool: nothing is stored twice.
    const before = (await events(podId)).length;
    for (const name of HOOK_FIXTURES) expect((await hook(token, readHookFixture(name))).status).toBe(200);
    for (const name of HOOK_FIXTURES)
      expect((await hook(token, readHookFixture(name), "?replay=1")).status).toBe(200);
    await Promise.all(HOOK_FIXTURES.map((name) => hook(token, readHookFixture(name))));
    expect((await events(podId)).length).toBe(before);
  });

  it("a session whose start never came is opened by its first event, once, before it", async () => {
    const { podId, token } = await pod("inferred-start");
    const session = "a6d0c3f2-1b7e-4c55-9e0a-3f4b2d1c8e77";
    const prompt: Record<string, any> = { ...readHookFixture("user-prompt-submit"), session_id: session };
    const pre = { ...readHookFixture("pre-tool-use-read"), session_id: session };
    // Claude Code's HTTP form: no SessionStart; two first hooks at once, then each retried.
    await Promise.all([hook(token, prompt), hook(token, pre)]);
    await Promise.all([hook(token, prompt), hook(token, pre), hook(token, pre, "?replay=1")]);
    const tape = (await events(podId)).filter((e) => e.meta?.sessionId === session);
    expect(tape.map((e) => e.type).sort()).toEqual(["prompt.submitted", "session.started", "tool.call"]);
    expect(tape[0]).toMatchObject({
      type: "session.started",
      body: { via: "claude-code", source: "inferred", cwd: prompt.cwd },
    });
    const state = (await s.app.store.readState(podId))!;
    expect(state.sessions[session]).toMatchObject({ via: "claude-code", prompts: 1, toolCalls: 1 });
    // A session that did start is not opened again.
    const started: Record<string, any> = {
      ...readHookFixture("session-start"),
      session_id: "started-session",
    };
    await hook(token, started);
    await hook(token, { ...prompt, session_id: "started-session" });
    const second = (await events(podId)).filter((e) => e.meta?.sessionId === "started-session");
    expect(second.map((e) => [e.type, e.body.source])).toEqual([
      ["session.started", started.source],
      ["prompt.submitted", undefined],
    ]);
  });

  it("what a subagent does is its own session, under its parent, with its type", async () => {
    const { podId, token } = await pod("subagents");
    const main = "5f2b8c1e-9a47-4d3b-b6a2-7c0e1d9f4a31";
    const inside = { agent_id: "b81f22", agent_type: "general-purpose" };
    // Its tool call arrives before any SubagentStart (the HTTP form, a lost hook): it opens the child itself.
    const pre = { ...readHookFixture("pre-tool-use-bash"), ...inside, tool_use_id: "toolu_sub_1" };
    const post = { ...readHookFixture("post-tool-use-bash"), ...inside, tool_use_id: "toolu_sub_1" };
    expect((await hook(token, pre)).status).toBe(200);
    expect((await hook(token, post)).status).toBe(200);
    expect((await hook(token, { ...readHookFixture("subagent-stop"), ...inside })).status).toBe(200);
    const child = `${main}/b81f22`;
    const tape = await events(podId);
    expect(tape.filter((e) => e.meta?.sessionId === child).map((e) => [e.type, e.body.phase])).toEqual([
      ["session.started", undefined],
      ["tool.call", "started"],
      ["tool.call", "succeeded"],
      ["session.ended", undefined],
    ]);
    expect(tape.find((e) => e.meta?.sessionId === child)!.body).toMatchObject({
      source: "inferred",
      parentSessionId: main,
      agentType: "general-purpose",
    });
    const state = (await s.app.store.readState(podId))!;
    expect(state.sessions[child]).toMatchObject({
      parentSessionId: main,
      agentType: "general-purpose",
      toolCalls: 1,
      ended: expect.objectContaining({ reason: "subagent stopped" }),
    });
    expect(state.sessions[main]).toMatchObject({ toolCalls: 0 }); // the parent reported only the stop
  });

  it("prompt text stays off the tape when the pod keeps it out", async () => {
    const { podId, token } = await pod("no-prompts");
    await setPolicy(podId, { rules: [], recordPrompts: false });
    const prompt = { ...readHookFixture("user-prompt-submit"), prompt: "deploy with the key sk-live-123" };
    expect((await hook(token, prompt)).status).toBe(200);
    const [e] = await ofType(podId, "prompt.submitted");
    expect(e!.body).toEqual({ chars: prompt.prompt.length });
    expect(JSON.stringify(await events(podId))).not.toContain("sk-live-123");
  });

  it("a rule allows or denies at once, in Claude Code's shape, and the gate is on the tape", async () => {
    const { podId, token } = await pod("rules");
    await setPolicy(podId, GATED);
    const ls = await hook(token, {
      ...readHookFixture("pre-tool-use-bash"),
      tool_use_id: "toolu_ls",
      tool_input: { command: "ls -la src" },
    });
    expect(ls).toMatchObject({
      status: 200,
      unreachable: "closed",
      body: {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          permissionDecisionReason: expect.stringContaining('"ls-ok"'),
        },
      },
    });
    const rm = await hook(token, readHookFixture("permission-request"));
    expect(rm.body).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: expect.stringContaining('rule "no-rm"') },
      },
    });
    const calls = await ofType(podId, "tool.call");
    expect(calls.map((c) => c.body.gate)).toEqual([
      { decision: "allow", by: "policy", ruleId: "ls-ok", reason: expect.any(String) },
      { decision: "deny", by: "policy", ruleId: "no-rm", reason: expect.any(String) },
    ]);
    // A call no rule matches is Claude Code's own to decide; a PermissionRequest no rule matches adds nothing.
    expect((await hook(token, readHookFixture("pre-tool-use-bash"))).body).toEqual({});
    expect(
      (
        await hook(token, {
          ...readHookFixture("permission-request"),
          tool_input: { command: "npm run build" },
        })
      ).body,
    ).toEqual({});
    expect((await ofType(podId, "tool.call")).length).toBe(3);
    // A replayed call is recorded, never gated.
    expect((await hook(token, push("toolu_replayed"), "?replay=1")).body).toEqual({});
    expect((await ofType(podId, "tool.approval.requested")).length).toBe(0);
  });

  it("an ask holds the call until a person answers; a retry waits on the same request", async () => {
    const { podId, token } = await pod("ask");
    await setPolicy(podId, GATED);
    expect((await hook(token, readHookFixture("user-prompt-submit"))).status).toBe(200);
    const held = hook(token, push("toolu_push1"), "?wait=60");
    const [asked] = await eventually(
      () => ofType(podId, "tool.approval.requested"),
      (l) => l.length > 0,
      "the approval request",
    );
    expect(asked!.body).toMatchObject({
      toolUseId: "toolu_push1",
      tool: "Bash",
      ruleId: "push",
      deadline: { then: "answer", answer: "deny" },
    });
    expect(JSON.parse(asked!.body.input)).toEqual({ command: "git push origin feature/orders-pagination" });
    expect(asked!.body.context[0]).toMatch(/^Prompt: Add pagination/);
    const state = (await s.app.store.readState(podId))!;
    expect(state.inbox[`tool:${asked!.body.requestId}`]).toMatchObject({ kind: "tool_approval" });
    const retry = hook(token, push("toolu_push1"), "?wait=60");
    await sleep(300);
    await answer(podId, asked!.body.requestId, "allow", "ship it");
    for (const r of [await held, await retry])
      expect(r.body).toEqual({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          permissionDecisionReason: "ship it",
        },
      });
    expect((await ofType(podId, "tool.approval.requested")).length).toBe(1);
    const gated = (await ofType(podId, "tool.call")).filter((c) => c.body.toolUseId === "toolu_push1");
    expect(gated.map((c) => c.body.gate)).toEqual([
      {
        decision: "allow",
        by: "person",
        requestId: asked!.body.requestId,
        ruleId: "push",
        reason: "ship it",
      },
    ]);
    // Asked again after the answer (Claude Code retrying late): the same answer, nothing new.
    expect((await hook(token, push("toolu_push1"))).body.hookSpecificOutput.permissionDecision).toBe("allow");

    const denied = hook(token, push("toolu_push2", "git push --force origin main"), "?wait=60");
    const second = await eventually(
      () => ofType(podId, "tool.approval.requested"),
      (l) => l.length > 1,
      "the second request",
    );
    await answer(podId, second[1]!.body.requestId, "deny", "not to main, and never --force");
    expect((await denied).body).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "not to main, and never --force",
      },
    });
  });

  it("the deadline's default answers a call nobody answered; a wait that ends first denies and leaves the request in the inbox", async () => {
    const { podId, token } = await pod("deadline");
    await setPolicy(podId, GATED);
    const byDeadline = await hook(token, push("toolu_late"), "?wait=8"); // deadline ≈ 2 s (the test minimum), before the 7 s hold ends
    expect(byDeadline.body).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "No answer by the deadline: deny",
      },
    });
    expect((await ofType(podId, "tool.call")).at(-1)!.body.gate).toMatchObject({
      decision: "deny",
      by: "deadline",
    });
    expect((await ofType(podId, "deadline.passed")).length).toBe(1);

    const timedOut = await hook(token, push("toolu_short"), "?wait=1");
    expect(timedOut.body.hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining("No answer came in time"),
    });
    const [, open] = await ofType(podId, "tool.approval.requested");
    expect((await s.app.store.readState(podId))!.toolApprovals[open!.body.requestId]!.answer).toBeNull();
  });

  it("a held call ends when its caller hangs up", async () => {
    const { podId, tokens } = await agentPod(s.url, "hang-up", { claude: "implementer" });
    await setPolicy(podId, GATED);
    const tokenId = (
      (await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens as { id: string }[]
    )[0]!.id;
    const gone = new AbortController();
    const held = hook(tokens["claude"]!, push("toolu_hangup"), "?wait=600", gone.signal).catch(
      (e: Error) => e.name,
    );
    await eventually(
      () => ofType(podId, "tool.approval.requested"),
      (l) => l.length > 0,
      "the request",
    );
    expect(heldCalls(s.app).count(tokenId)).toBe(1);
    gone.abort();
    expect(await held).toBe("AbortError");
    await eventually(
      async () => heldCalls(s.app).count(tokenId),
      (n) => n === 0,
      "the held call to end",
    );
    expect(await ofType(podId, "tool.call")).toEqual([]); // nobody was answered, so nothing was decided
  });

  it("refuses what is not a hook: malformed input 400, too large 413; only an agent token of a pod reports", async () => {
    const { podId, token } = await pod("refusals");
    expect(await hook(token, "{not json")).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_json" } },
    });
    expect(await hook(token, { ...readHookFixture("session-start"), session_id: undefined })).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining("session_id") } },
    });
    expect(await hook(token, { ...readHookFixture("post-tool-use-bash"), tool_name: 7 })).toMatchObject({
      status: 400,
      body: { error: { message: expect.stringContaining("tool_name") } },
    });
    // A gated call is answered whatever is wrong with it: by the pod's unreachable rule (open here: no opinion).
    expect(await hook(token, { ...readHookFixture("pre-tool-use-bash"), tool_name: 7 })).toMatchObject({
      status: 200,
      body: {},
      unreachable: "open",
    });
    expect((await hook(token, readHookFixture("session-start"), "?wait=99999")).status).toBe(400);
    // A big Read's response is accepted and only summarised; past 2 MiB the body is refused.
    const big = {
      ...readHookFixture("post-tool-use-bash"),
      tool_use_id: "toolu_big",
      tool_response: { stdout: "x".repeat(1_900_000), stderr: "" },
    };
    expect((await hook(token, big)).status).toBe(200);
    expect((await ofType(podId, "tool.call")).at(-1)!.body.output.length).toBeLessThanOrEqual(2000);
    const huge = { ...big, tool_use_id: "toolu_huge", tool_response: { stdout: "x".repeat(2_200_000) } };
    expect(await hook(token, huge)).toMatchObject({
      status: 413,
      body: { error: { code: "payload_too_large" } },
    });
    expect((await hook("pw_agent_not-a-real-token", readHookFixture("session-start"))).status).toBe(401);
    expect(await hook(TEST_ADMIN_TOKEN, readHookFixture("session-start"))).toMatchObject({
      status: 403,
      body: { error: { code: "agent_token_required" } },
    });
    expect((await fetch(`${s.url}/api/v1/hooks/claude-code`, { method: "POST", body: "{}" })).status).toBe(
      401,
    );
    const tokenId = (
      (await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens as { id: string }[]
    )[0]!.id;
    expect((await api(s.url, "DELETE", `/api/v1/pods/${podId}/tokens/${tokenId}`)).status).toBe(200);
    expect((await hook(token, readHookFixture("session-start"))).status).toBe(401);
  });
});
