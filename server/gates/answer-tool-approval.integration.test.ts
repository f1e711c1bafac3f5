// Gated tools from the people's side, against the real server and database: a pod admin sets a
// tool policy (a server action, as the person), an agent asks, and an approver answers — from
// the inbox's server action and from a notification's act route — each once, on the tape as
// the person, with the reason the agent is told.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { performOperation } from "../web/perform-operation";
import { steerOperations } from "../pods/steer-operations";
import { inboxOperations } from "../pods/inbox-operations";
import type { Identity } from "../domain/access/policy";

const PASSWORD = "a long enough password";

describe.each(testProviders())("tool approvals answered by people on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let cookie: string;
  const tag = randomUUID().slice(0, 6);
  const person = (name: string): Extract<Identity, { kind: "user" }> => ({
    kind: "user",
    userId: `u-${name}`,
    email: `${name}-${tag}@example.com`,
    name,
    isAdmin: false,
  });
  const ada = person("ada"); // pod admin
  const pia = person("pia"); // approver
  const vic = person("vic"); // viewer

  const state = async () => (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
  const ask = (requestId: string, command: string) =>
    api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "tool.approval.requested",
      actor: "impl-1",
      sessionId: "sess-1",
      body: {
        requestId,
        toolUseId: `tu-${requestId}`,
        tool: "Bash",
        input: JSON.stringify({ command }),
        context: ["Prompt: ship it"],
        deadline: { inMinutes: 5, then: "answer", answer: "deny" },
      },
    }); // admin automation: an agent's own token cannot write an approval (only the hook route asks)
  const act = (body: unknown) =>
    fetch(`${s.url}/api/v1/me/inbox/act`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie,
        origin: s.url,
        "x-podwatch-request": "notification",
        "sec-fetch-site": "same-origin",
      },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    s = await startTestServer(provider, { PODWATCH_SIGN_INS_PER_MINUTE: "1000" });
    ({ podId } = await agentPod(s.url, "Gates pod", { "impl-1": "implementer" }));
    for (const [who, access] of [
      [ada, "admin"],
      [pia, "approver"],
      [vic, "viewer"],
    ] as const) {
      expect(
        (await api(s.url, "POST", "/api/v1/users", { email: who.email, name: who.name, password: PASSWORD }))
          .status,
      ).toBe(201);
      expect(
        (
          await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
            memberId: who.email,
            kind: "human",
            displayName: who.name,
            roles: [access],
          })
        ).status,
      ).toBe(201);
    }
    const res = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: JSON.stringify({ email: pia.email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const policy = {
      rules: [{ id: "push", tool: "Bash", input: "git push*", action: "ask" }],
      ask: { minutes: 10, then: "deny" },
      unreachable: "closed",
      recordPrompts: false,
    };
    expect(
      await performOperation(s.app, ada, steerOperations.setToolPolicy, { podId, policy }),
    ).toMatchObject({
      ok: true,
    });
  });
  afterAll(() => s?.stop());

  it("a pod admin's policy is on the tape as the person and in the state; an approver may not set one, a broken one stores nothing", async () => {
    const st = await state();
    expect(st.toolPolicies).toMatchObject({
      recordPrompts: false,
      policies: {
        pod: {
          by: ada.email,
          unreachable: "closed",
          ask: { minutes: 10, then: "deny" },
          rules: [{ id: "push", tool: "Bash", input: "git push*", outside: false, action: "ask" }],
        },
      },
    });
    expect(
      await performOperation(s.app, pia, steerOperations.setToolPolicy, { podId, policy: { rules: [] } }),
    ).toMatchObject({ ok: false, code: "forbidden" });
    const broken = await performOperation(s.app, ada, steerOperations.setToolPolicy, {
      podId,
      policy: { rules: [{ id: "w", tool: "Write", outside: true, action: "ask" }] },
    });
    expect(broken).toMatchObject({ ok: false, code: "invalid_request" });
    expect(broken.ok ? "" : broken.error).toContain("outside");
    const perAgent = await performOperation(s.app, ada, steerOperations.setToolPolicy, {
      podId,
      policy: { agentId: "impl-1", rules: [{ id: "mcp", tool: "mcp__*", action: "ask" }] },
    });
    expect(perAgent.ok).toBe(true);
    expect((await state()).toolPolicies.policies.agents["impl-1"].rules).toMatchObject([
      { id: "mcp", tool: "mcp__*" },
    ]);
    expect((await state()).seq).toBe(st.seq + 1);
  });

  it("the inbox's action denies with the reason once; a second answer and a viewer are refused", async () => {
    expect((await ask("r-deny", "git push --force")).status).toBe(201);
    expect((await state()).inbox.find((i: { id: string }) => i.id === "tool:r-deny")).toMatchObject({
      kind: "tool_approval",
      recent: ["Prompt: ship it"],
    });
    expect(
      await performOperation(s.app, vic, inboxOperations.answerToolApproval, {
        podId,
        answer: { requestId: "r-deny", decision: "allow" },
      }),
    ).toMatchObject({ ok: false, code: "forbidden" });
    const r = await performOperation(s.app, pia, inboxOperations.answerToolApproval, {
      podId,
      answer: { requestId: "r-deny", decision: "deny", reason: "not on a Friday" },
    });
    expect(r.ok).toBe(true);
    const again = await performOperation(s.app, pia, inboxOperations.answerToolApproval, {
      podId,
      answer: { requestId: "r-deny", decision: "allow" },
    });
    expect(again).toMatchObject({ ok: false, code: "already_answered" });
    const events = (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=500`)).body
      .events as { type: string; actor: string; body: { requestId?: string; reason?: string } }[];
    expect(
      events.filter((e) => e.type === "tool.approval.answered" && e.body.requestId === "r-deny"),
    ).toMatchObject([
      { actor: pia.email, body: { decision: "deny", reason: "not on a Friday", remember: "once" } },
    ]);
    expect((await state()).inbox.some((i: { id: string }) => i.id === "tool:r-deny")).toBe(false);
  });

  it("'always allow this' adds an exact allow rule to the agent's policy; a remembered deny is refused", async () => {
    expect((await ask("r-always", "git push origin main")).status).toBe(201);
    expect(
      await performOperation(s.app, pia, inboxOperations.answerToolApproval, {
        podId,
        answer: { requestId: "r-always", decision: "deny", remember: "session" },
      }),
    ).toMatchObject({ ok: false, code: "invalid_request" });
    expect(
      (
        await performOperation(s.app, pia, inboxOperations.answerToolApproval, {
          podId,
          answer: { requestId: "r-always", decision: "allow", remember: "always" },
        })
      ).ok,
    ).toBe(true);
    expect((await state()).toolPolicies.policies.agents["impl-1"].rules[0]).toMatchObject({
      tool: "Bash",
      input: "git push origin main",
      action: "allow",
    });
  });

  it("a notification's Allow and Deny (with a reason) answer through the act route; anything else is refused", async () => {
    expect((await ask("r-allow", "git push origin dev")).status).toBe(201);
    expect((await ask("r-no", "git push origin prod")).status).toBe(201);
    expect((await act({ podId, itemId: "tool:r-allow", action: "approve" })).status).toBe(409);
    const allowed = await act({ podId, itemId: "tool:r-allow", action: "allow" });
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ ok: true, seqs: [expect.any(Number)] });
    const denied = await act({ podId, itemId: "tool:r-no", action: "deny", reason: "prod is frozen" });
    expect(denied.status).toBe(200);
    expect((await act({ podId, itemId: "tool:r-no", action: "deny" })).status).toBe(409);
    expect((await act({ podId, itemId: "tool:r-no", action: "deny", reason: "x".repeat(2001) })).status).toBe(
      400,
    );
    const events = (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=500`)).body
      .events as { type: string; actor: string; body: { requestId?: string } }[];
    const answers = events.filter(
      (e) => e.type === "tool.approval.answered" && ["r-allow", "r-no"].includes(e.body.requestId ?? ""),
    );
    expect(answers).toMatchObject([
      { actor: pia.email, body: { requestId: "r-allow", decision: "allow", remember: "once" } },
      { actor: pia.email, body: { requestId: "r-no", decision: "deny", reason: "prod is frozen" } },
    ]);
  });

  it("a call whose long text the hook route cut (a Write's content) may be denied from the inbox, never allowed", async () => {
    const content = `${"x".repeat(4000)}… [cut by podwatch] (90000 characters)`;
    const write = {
      requestId: "r-write",
      toolUseId: "tu-r-write",
      tool: "Write",
      input: JSON.stringify({ file_path: "/w/README.md", content }),
      context: [],
      deadline: { inMinutes: 5, then: "answer", answer: "deny" },
    };
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "tool.approval.requested",
          actor: "impl-1",
          sessionId: "sess-1",
          body: write,
        })
      ).status,
    ).toBe(201);
    const allowed = await performOperation(s.app, pia, inboxOperations.answerToolApproval, {
      podId,
      answer: { requestId: "r-write", decision: "allow" },
    });
    expect(allowed).toMatchObject({ ok: false, code: "call_not_whole" });
    expect((await act({ podId, itemId: "tool:r-write", action: "allow" })).status).toBe(409);
    expect(
      (
        await performOperation(s.app, pia, inboxOperations.answerToolApproval, {
          podId,
          answer: { requestId: "r-write", decision: "deny" },
        })
      ).ok,
    ).toBe(true);
  });

  it("admin automation sets a policy and answers through the events API (the admin token, as README's Gated tools says)", async () => {
    const set = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "agent.policy.set",
      actor: "admin",
      body: { rules: [{ id: "rm", tool: "Bash", input: "rm -rf*", action: "ask" }] },
    });
    expect(set.status).toBe(201);
    expect((await state()).toolPolicies.policies.pod.rules).toMatchObject([{ id: "rm", input: "rm -rf*" }]);
    expect((await ask("r-api", "git push origin api")).status).toBe(201);
    const answered = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "tool.approval.answered",
      actor: "admin",
      body: { requestId: "r-api", decision: "deny", reason: "by the release bot" },
    });
    expect(answered.status).toBe(201);
    expect((await state()).inbox.some((i: { id: string }) => i.id === "tool:r-api")).toBe(false);
  });
});
