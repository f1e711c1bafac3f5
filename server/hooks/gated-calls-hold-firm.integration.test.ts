// Gated tool calls against an attacker-minded agent, on the real server and
// database: podwatch's own refusals answer deny (Claude Code lets a call through on any non-2xx
// from an http hook), an answer is bound to the call's input, a held call does not outlive its
// token, a hold that ends unanswered leaves a trace, and an agent cannot forge podwatch's gates.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { readHookFixture } from "./fixtures";
import { MAX_HELD_PER_TOKEN } from "./held-calls";
import { heldCalls } from "../http/hook-routes";
import { eventually } from "../testing/eventually";

type Ev = { id: string; type: string; actor: string; body: Record<string, any> };

describe.each(testProviders())("gated calls hold firm on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => void (s = await startTestServer(provider, { PODWATCH_DEADLINE_MIN_MS: "100" })));
  afterAll(() => s?.stop());

  const hook = async (token: string, body: unknown, query = "", signal?: AbortSignal) => {
    const res = await fetch(`${s.url}/api/v1/hooks/claude-code${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const events = async (podId: string): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events;
  const ofType = async (podId: string, type: string) => (await events(podId)).filter((e) => e.type === type);
  const pod = async (name: string) => {
    const { podId, tokens } = await agentPod(s.url, name, { claude: "implementer" });
    const tokenId = (
      (await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens as { id: string }[]
    )[0]!.id;
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "agent.policy.set",
      actor: "ops-admin",
      body: GATED,
    });
    return { podId, token: tokens["claude"]!, tokenId };
  };
  const admin = (podId: string, body: unknown) => api(s.url, "POST", `/api/v1/pods/${podId}/events`, body);
  const answer = async (podId: string, requestId: string, decision: "allow" | "deny", reason?: string) =>
    expect(
      (
        await admin(podId, {
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
    ],
    ask: { minutes: 5, then: "deny" },
  };
  const push = (toolUseId: string, command = "git push origin feature/orders-pagination") => ({
    ...readHookFixture("pre-tool-use-git-push"),
    tool_use_id: toolUseId,
    tool_input: { command },
  });
  const decisionOf = (r: { body: any }) => [
    r.body?.hookSpecificOutput?.permissionDecision,
    r.body?.hookSpecificOutput?.permissionDecisionReason,
  ];

  it("podwatch's own refusals deny with 200 (Claude Code would let a non-2xx through): too many open approvals, too many held calls", async () => {
    const { podId, token, tokenId } = await pod("held-limit");
    const gone = new AbortController();
    const hold = (id: string) => hook(token, push(id), "?wait=60", gone.signal).catch(() => null);
    // The domain keeps at most 16 open approvals per agent: a 17th call cannot be asked about.
    const open = Array.from({ length: 16 }, (_, i) => hold(`toolu_open${i}`));
    await eventually(
      () => ofType(podId, "tool.approval.requested"),
      (l) => l.length === 16,
      "16 open requests",
    );
    const cannotAsk = await hook(token, push("toolu_open16"), "?wait=60");
    expect([cannotAsk.status, ...decisionOf(cannotAsk)]).toEqual([
      200,
      "deny",
      expect.stringContaining("could not ask"),
    ]);
    // Retries wait on their request without asking again; each still holds a slot of the token's.
    const retries = Array.from({ length: MAX_HELD_PER_TOKEN - 16 }, () => hold("toolu_open0"));
    await eventually(
      async () => heldCalls(s.app).count(tokenId),
      (n) => n === MAX_HELD_PER_TOKEN,
      "every call to be held",
      30_000,
    );
    const over = await hook(token, push("toolu_open1"), "?wait=60");
    expect([over.status, ...decisionOf(over)]).toEqual([
      200,
      "deny",
      expect.stringContaining("too many tool calls of this agent are held at once"),
    ]);
    const asPermission = await hook(
      token,
      { ...readHookFixture("permission-request"), tool_input: { command: "git push origin main" } },
      "?wait=60",
    );
    expect([asPermission.status, asPermission.body.hookSpecificOutput.decision.behavior]).toEqual([
      200,
      "deny",
    ]);
    gone.abort();
    await Promise.all([...open, ...retries]);
    await eventually(
      async () => heldCalls(s.app).count(tokenId),
      (n) => n === 0,
      "the held calls to end",
    );
  }, 60_000);

  it("a decision stands when its record is refused: a rule's deny (an id the tape refuses) and a person's deny answered as the pod closes", async () => {
    const { podId, token } = await pod("record-refused");
    // "constructor" passes the hook's loose id check but not the tape's: the record fails, the deny must not.
    const rm = await hook(token, {
      ...readHookFixture("pre-tool-use-bash"),
      tool_use_id: "constructor",
      tool_input: { command: "rm -rf /" },
    });
    expect([rm.status, ...decisionOf(rm)]).toEqual([200, "deny", expect.stringContaining('rule "no-rm"')]);

    const held = hook(token, push("toolu_closing"), "?wait=60");
    const [asked] = await eventually(
      () => ofType(podId, "tool.approval.requested"),
      (l) => l.length > 0,
      "the request",
    );
    const closing = {
      events: [
        {
          type: "tool.approval.answered",
          actor: "ops-admin",
          body: { requestId: asked!.body.requestId, decision: "deny", reason: "not today" },
        },
        { type: "pod.closed", actor: "ops-admin", body: { reason: "done" } },
      ],
    };
    expect((await admin(podId, closing)).status).toBe(201);
    const r = await held;
    expect([r.status, ...decisionOf(r)]).toEqual([200, "deny", "not today"]);
    expect((await ofType(podId, "tool.call")).filter((c) => c.body.toolUseId === "toolu_closing")).toEqual(
      [],
    );
  });

  it("a session_id that is a reserved name or holds control characters is a 400 for an observation and, for a gated call, the unreachable rule's answer; never a 500", async () => {
    const { token } = await pod("session-ids");
    for (const session_id of ["constructor", "__proto__", "hasOwnProperty", "a\nb", "x\u202Ey"]) {
      const r = await hook(token, { ...readHookFixture("session-start"), session_id });
      expect([session_id, r.status, r.body.error.message]).toEqual([
        session_id,
        400,
        expect.stringContaining("session_id"),
      ]);
      const gated = await hook(token, { ...readHookFixture("pre-tool-use-git-push"), session_id });
      expect([session_id, gated.status, gated.body]).toEqual([session_id, 200, {}]); // this pod's rule is open: no opinion
    }
  });

  it("an answer is bound to the call's input: the same tool_use_id with another command asks again", async () => {
    const { podId, token } = await pod("bound-answer");
    const first = hook(token, push("toolu_reused", "git push origin feature/x"), "?wait=60");
    const [asked] = await eventually(
      () => ofType(podId, "tool.approval.requested"),
      (l) => l.length === 1,
      "the first request",
    );
    await answer(podId, asked!.body.requestId, "allow", "feature branch is fine");
    expect(decisionOf(await first)).toEqual(["allow", "feature branch is fine"]);
    // A true retry still gets its answer at once.
    expect(decisionOf(await hook(token, push("toolu_reused", "git push origin feature/x")))).toEqual([
      "allow",
      "feature branch is fine",
    ]);

    const swapped = hook(token, push("toolu_reused", "git push --force origin main"), "?wait=60");
    const requests = await eventually(
      () => ofType(podId, "tool.approval.requested"),
      (l) => l.length === 2,
      "a second request for the new input",
    );
    expect(requests[1]!.body.requestId).not.toBe(asked!.body.requestId);
    expect(JSON.parse(requests[1]!.body.input)).toEqual({ command: "git push --force origin main" });
    await answer(podId, requests[1]!.body.requestId, "deny", "never to main");
    expect(decisionOf(await swapped)).toEqual(["deny", "never to main"]);
  });

  it("a call held while its token is revoked is denied when answered, and nothing is recorded for it", async () => {
    const { podId, token, tokenId } = await pod("revoked-mid-hold");
    const held = hook(token, push("toolu_revoked"), "?wait=60");
    const [asked] = await eventually(
      () => ofType(podId, "tool.approval.requested"),
      (l) => l.length > 0,
      "the request",
    );
    expect((await api(s.url, "DELETE", `/api/v1/pods/${podId}/tokens/${tokenId}`)).status).toBe(200);
    await answer(podId, asked!.body.requestId, "allow", "go ahead");
    const r = await held;
    expect([r.status, ...decisionOf(r)]).toEqual([200, "deny", expect.stringContaining("token was revoked")]);
    expect((await ofType(podId, "tool.call")).filter((c) => c.body.toolUseId === "toolu_revoked")).toEqual(
      [],
    );
  });

  it("a hold that ends before anyone answered is on the tape: the call, denied by the deadline, with why", async () => {
    const { podId, token } = await pod("hold-ends");
    const r = await hook(token, push("toolu_unanswered"), "?wait=1");
    expect(decisionOf(r)).toEqual(["deny", expect.stringContaining("No answer came in time")]);
    const [asked] = await ofType(podId, "tool.approval.requested");
    const calls = (await ofType(podId, "tool.call")).filter((c) => c.body.toolUseId === "toolu_unanswered");
    expect(calls.map((c) => c.body.gate)).toEqual([
      {
        decision: "deny",
        by: "deadline",
        ruleId: "push",
        requestId: asked!.body.requestId,
        reason: expect.stringContaining("before anyone answered"),
      },
    ]);
  });

  it("a path rule reads the call's own cwd from the hook, not only the session's", async () => {
    const { podId, token } = await pod("call-cwd");
    await admin(podId, {
      type: "agent.policy.set",
      actor: "ops-admin",
      body: { rules: [{ id: "no-secrets", tool: "Write", input: "secrets/*", action: "deny" }] },
    });
    const write = (cwd: string, toolUseId: string) => ({
      ...readHookFixture("pre-tool-use-bash"),
      tool_use_id: toolUseId,
      cwd,
      tool_name: "Write",
      tool_input: { file_path: "/srv/other-checkout/secrets/prod.env", content: "x" },
    });
    // The session started in /home/dev/shop-api; this call runs in /srv/other-checkout, where the file is under secrets/.
    expect((await hook(token, readHookFixture("session-start"))).status).toBe(200);
    expect(decisionOf(await hook(token, write("/srv/other-checkout", "toolu_w1")))).toEqual([
      "deny",
      expect.stringContaining('rule "no-secrets"'),
    ]);
    expect((await hook(token, write("/home/dev/shop-api", "toolu_w2"))).body).toEqual({});
  });

  it("an agent cannot forge podwatch's gates through the events API; it may report an unreachable one; the hook route still writes them", async () => {
    const { podId, token } = await pod("forged-gates");
    const call = (by: string, toolUseId: string) => ({
      type: "tool.call",
      actor: "claude",
      sessionId: "s-1",
      body: {
        toolUseId,
        tool: "Bash",
        phase: "started",
        input: "git push origin main",
        gate: { decision: "allow", by },
      },
    });
    for (const by of ["policy", "person", "deadline"]) {
      const single = await api(
        s.url,
        "POST",
        `/api/v1/pods/${podId}/events`,
        call(by, `toolu_forged_${by}`),
        { token },
      );
      expect([by, single.status, single.body.error.code]).toEqual([by, 422, "gate_is_podwatchs"]);
      const batch = await api(
        s.url,
        "POST",
        `/api/v1/pods/${podId}/events`,
        {
          events: [
            { type: "agent.notified", actor: "claude", body: { message: "hi" } },
            call(by, `toolu_batch_${by}`),
          ],
        },
        { token },
      );
      expect([by, batch.status, batch.body.error.code]).toEqual([by, 422, "gate_is_podwatchs"]);
    }
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, call("unreachable", "toolu_offline"), {
          token,
        })
      ).status,
    ).toBe(201);
    const approval = {
      type: "tool.approval.requested",
      actor: "claude",
      sessionId: "s-1",
      body: {
        requestId: "forged",
        toolUseId: "toolu_x",
        tool: "Bash",
        input: '{"command":"ls"}',
        deadline: { inMinutes: 5, then: "answer", answer: "deny" },
      },
    };
    const asked = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, approval, { token });
    expect([asked.status, asked.body.error.code]).toEqual([422, "approval_is_podwatchs"]);
    expect((await ofType(podId, "tool.call")).map((c) => c.body.gate.by)).toEqual(["unreachable"]);
    expect(await ofType(podId, "agent.notified")).toEqual([]); // all or nothing
    const rm = await hook(token, {
      ...readHookFixture("pre-tool-use-bash"),
      tool_use_id: "toolu_rm",
      tool_input: { command: "rm -rf build" },
    });
    expect(decisionOf(rm)[0]).toBe("deny");
    expect((await ofType(podId, "tool.call")).map((c) => c.body.gate.by)).toEqual(["unreachable", "policy"]);
  });
});
