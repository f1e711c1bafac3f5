// The hook door always answers a gated call with a decision, on the real server and database:
// input it cannot read, a caller it will not serve, and a failure of its own get a 200 carrying
// the pod's unreachable rule (closed: deny, open: no opinion), never a 4xx or 5xx, which Claude
// Code would take as leave to run the tool. Observations keep their 4xx. And a crossed hold_tools
// budget asks a person about a call an ask rule covers, as the reducer requires.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  agentPod,
  api,
  startServerOn,
  startTestServer,
  TEST_ADMIN_TOKEN,
  type TestServer,
} from "../testing/test-server";
import { createTestDatabase, rawSql, testProviders } from "../testing/test-databases";
import { readHookFixture } from "./fixtures";
import { eventually } from "../testing/eventually";

type Ev = { type: string; actor: string; body: Record<string, any> };

describe.each(testProviders())("the gated door always answers, on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => void (s = await startTestServer(provider, { PODWATCH_DEADLINE_MIN_MS: "100" })));
  afterAll(() => s?.stop());

  const hook = async (token: string, body: unknown, query = "") => {
    const res = await fetch(`${s.url}/api/v1/hooks/claude-code${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text ? JSON.parse(text) : null,
      unreachable: res.headers.get("x-podwatch-unreachable"),
    };
  };
  const ofType = async (podId: string, type: string): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events.filter(
      (e: Ev) => e.type === type,
    );
  const admin = (podId: string, body: unknown) => api(s.url, "POST", `/api/v1/pods/${podId}/events`, body);
  const pod = async (name: string, policy: object) => {
    const { podId, tokens } = await agentPod(s.url, name, { claude: "implementer" });
    expect((await admin(podId, { type: "agent.policy.set", actor: "ops-admin", body: policy })).status).toBe(
      201,
    );
    return { podId, token: tokens["claude"]! };
  };
  const RULES = [
    { id: "push", tool: "Bash", input: "git push*", action: "ask" },
    { id: "no-rm", tool: "Bash", input: "rm -rf*", action: "deny" },
  ];
  const push = (toolUseId: string) => ({
    ...readHookFixture("pre-tool-use-git-push"),
    tool_use_id: toolUseId,
  });

  const decision = (r: { body: any }) =>
    r.body?.hookSpecificOutput?.permissionDecision ?? r.body?.hookSpecificOutput?.decision?.behavior;
  const reason = (r: { body: any }) =>
    r.body?.hookSpecificOutput?.permissionDecisionReason ?? r.body?.hookSpecificOutput?.decision?.message;
  const withInput = (fixture: "pre-tool-use-bash" | "permission-request", toolUseId: string, extra: string) =>
    JSON.stringify({
      ...readHookFixture(fixture),
      tool_use_id: toolUseId,
      tool_input: { command: "rm -rf /", description: "X" },
    }).replace('"X"', extra);
  const UNREADABLE = {
    nul: '"a\\u0000b"',
    lone_surrogate: '"\\ud800"',
    too_deep: `${"[".repeat(200)}${"]".repeat(200)}`,
    cut_short: '"x", "y": tru',
  };

  it("input the door refuses (NUL, a lone surrogate, nesting past 128, cut short, too large) gets the closed rule's deny with a 200, never a 4xx", async () => {
    const { podId, token } = await pod("unreadable-closed", { rules: RULES, unreachable: "closed" });
    for (const [what, extra] of Object.entries(UNREADABLE)) {
      for (const fixture of ["pre-tool-use-bash", "permission-request"] as const) {
        const r = await hook(token, withInput(fixture, `toolu_${what}`, extra));
        expect([what, fixture, r.status, r.unreachable, decision(r)]).toEqual([
          what,
          fixture,
          200,
          "closed",
          "deny",
        ]);
        expect(reason(r)).toMatch(
          /was not checked: podwatch could not check it \(4\d\d .*\); this agent's rule is to deny/,
        );
      }
    }
    const huge = JSON.stringify({
      ...readHookFixture("pre-tool-use-bash"),
      tool_use_id: "toolu_huge",
      tool_input: { command: "rm -rf /", description: "x".repeat(2_200_000) },
    });
    const r = await hook(token, huge);
    expect([r.status, decision(r), reason(r)]).toEqual([
      200,
      "deny",
      expect.stringContaining("413 payload_too_large"),
    ]);
    // A session_id the tape refuses: the call is still answered.
    const badSession = await hook(token, {
      ...readHookFixture("pre-tool-use-git-push"),
      session_id: "constructor",
    });
    expect([badSession.status, decision(badSession)]).toEqual([200, "deny"]);
    // Observations keep their 4xx; so does a replay from a spool (nothing waits on its answer).
    expect(
      (
        await hook(
          token,
          JSON.stringify({ ...readHookFixture("notification"), message: "X" }).replace('"X"', UNREADABLE.nul),
        )
      ).status,
    ).toBe(400);
    expect(
      (await hook(token, withInput("pre-tool-use-bash", "toolu_replay", UNREADABLE.nul), "?replay=1")).status,
    ).toBe(400);
    expect(await ofType(podId, "tool.call")).toEqual([]);
  });

  it("an open rule gives no opinion on what the door refuses (Claude Code's own permission flow decides), still with a 200", async () => {
    const { token } = await pod("unreadable-open", { rules: RULES, unreachable: "open" });
    for (const [what, extra] of Object.entries(UNREADABLE)) {
      const r = await hook(token, withInput("pre-tool-use-bash", `toolu_${what}`, extra));
      expect([what, r.status, r.unreachable, r.body]).toEqual([what, 200, "open", {}]);
    }
    // A readable call is still decided by its rule.
    expect(
      decision(
        await hook(token, { ...readHookFixture("pre-tool-use-bash"), tool_input: { command: "rm -rf /" } }),
      ),
    ).toBe("deny");
  });

  it("a caller without a valid agent token gets a deny for a gated call (no pod, no rule to read), and its 401/403 for the rest", async () => {
    const { token, podId } = await pod("bad-token", { rules: RULES, unreachable: "open" });
    for (const t of ["pw_agent_not-a-real-token", TEST_ADMIN_TOKEN]) {
      const r = await hook(t, readHookFixture("pre-tool-use-git-push"));
      expect([r.status, r.unreachable, decision(r), reason(r)]).toEqual([
        200,
        null,
        "deny",
        expect.stringContaining("does not accept this hook's credentials"),
      ]);
      expect(
        (await hook(t, withInput("permission-request", "toolu_x", UNREADABLE.nul))).body.hookSpecificOutput
          .decision.behavior,
      ).toBe("deny");
    }
    expect((await hook("pw_agent_not-a-real-token", readHookFixture("session-start"))).status).toBe(401);
    expect((await hook(TEST_ADMIN_TOKEN, readHookFixture("session-start"))).status).toBe(403);
    // A revoked token's agent is stopped, whatever its rule was.
    const tokenId = (
      (await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens as { id: string }[]
    )[0]!.id;
    expect((await api(s.url, "DELETE", `/api/v1/pods/${podId}/tokens/${tokenId}`)).status).toBe(200);
    expect(decision(await hook(token, readHookFixture("pre-tool-use-bash")))).toBe("deny");
    expect((await hook(token, readHookFixture("session-start"))).status).toBe(401);
  });

  it("a database error before the decision answers a gated call with a 200 deny (no rule could be read), an observation with its 500", async () => {
    const db = await createTestDatabase(provider);
    const own = await startServerOn(db, { PODWATCH_DEADLINE_MIN_MS: "100" }); // as the shared server: the minimum is process-wide
    try {
      const { podId, tokens } = await agentPod(own.url, "db-error", { claude: "implementer" });
      expect(
        (
          await api(own.url, "POST", `/api/v1/pods/${podId}/events`, {
            type: "agent.policy.set",
            actor: "ops-admin",
            body: { rules: RULES, unreachable: "open" },
          })
        ).status,
      ).toBe(201);
      // The tokens' table goes missing under the running server: checking the (never seen) token fails inside the database.
      await rawSql(db, "ALTER TABLE agent_token RENAME TO agent_token_gone");
      const post = (body: unknown) =>
        fetch(`${own.url}/api/v1/hooks/claude-code`, {
          method: "POST",
          headers: { authorization: `Bearer ${tokens["claude"]}` },
          body: JSON.stringify(body),
        });
      const gated = await post(readHookFixture("pre-tool-use-git-push"));
      const r = { status: gated.status, body: await gated.json() };
      expect([r.status, decision(r), reason(r)]).toEqual([
        200,
        "deny",
        expect.stringContaining("an internal error"),
      ]);
      expect((await post(readHookFixture("session-start"))).status).toBe(500);
    } finally {
      await own.close();
      await db.drop();
    }
  });

  it("a crossed hold_tools budget asks a person about a call an ask rule covers (policy default allow): the default is deny, the call is recorded", async () => {
    const { podId, tokens } = await agentPod(s.url, "budget-ask", { claude: "implementer", chair: "chair" });
    const chair = (type: string, body: object) =>
      api(
        s.url,
        "POST",
        `/api/v1/pods/${podId}/events`,
        { type, actor: "chair", body },
        { token: tokens["chair"]! },
      );
    expect((await chair("pod.scope_agreed", { scope: "s", successCriteria: ["c"] })).status).toBe(201);
    expect((await chair("pod.started", {})).status).toBe(201);
    expect(
      (
        await admin(podId, {
          type: "agent.policy.set",
          actor: "ops-admin",
          body: { rules: RULES, ask: { minutes: 5, then: "allow" } },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api(s.url, "PUT", `/api/v1/pods/${podId}/budgets/b-tok`, {
          agentId: "claude",
          metric: "tokens",
          limit: 1000,
          then: "hold_tools",
        })
      ).status,
    ).toBe(200);
    const usage = { type: "usage.reported", actor: "claude", body: { model: "m", inputTokens: 1100 } };
    expect(
      (await api(s.url, "POST", `/api/v1/pods/${podId}/events`, usage, { token: tokens["claude"]! })).status,
    ).toBe(201);
    await eventually(
      () => ofType(podId, "budget.exceeded"),
      (l) => l.length === 1,
      "the budget to be crossed",
    );

    const held = hook(tokens["claude"]!, push("toolu_budget_push"), "?wait=60");
    const [asked] = await eventually(
      () => ofType(podId, "tool.approval.requested"),
      (l) => l.length > 0,
      "the approval request",
    );
    expect(asked!.body).toMatchObject({ ruleId: "push", deadline: { then: "answer", answer: "deny" } });
    const state = (await s.app.store.readState(podId))!;
    expect(state.inbox[`tool:${asked!.body.requestId}`]).toMatchObject({ kind: "tool_approval" });
    expect(
      (
        await admin(podId, {
          type: "tool.approval.answered",
          actor: "ops-admin",
          body: { requestId: asked!.body.requestId, decision: "allow", reason: "one push is fine" },
        })
      ).status,
    ).toBe(201);
    expect((await held).body).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        permissionDecisionReason: "one push is fine",
      },
    });
    const calls = (await ofType(podId, "tool.call")).filter((c) => c.body.toolUseId === "toolu_budget_push");
    expect(calls.map((c) => c.body.gate)).toEqual([
      {
        decision: "allow",
        by: "person",
        ruleId: "push",
        requestId: asked!.body.requestId,
        reason: "one push is fine",
      },
    ]);
  });
});
