// Budgets that act against the real server: a budget set over the API is watched as
// usage is appended, and the server appends budget.exceeded itself, once per round; then the
// policy applies — an inbox item, a held tool call through the Claude Code hook route, a pause.
// Every metric; the API's bounds and refusals. SQLite and, with TEST_DATABASE_URL, PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { readHookFixture } from "../hooks/fixtures";
import { eventually, sleep } from "../testing/eventually";
import { DeadlineScheduler } from "../deadlines/deadline-scheduler";
import { callApi } from "../../components/shared/api-client";
import { listBudgetsRoute, removeBudgetRoute, setBudgetRoute } from "../../components/shared/api-routes";
import { budgetOperations } from "./budget-operations";

type Ev = { id: string; seq: number; type: string; actor: string; body: Record<string, any> };

describe.each(testProviders())("budgets that act on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => void (s = await startTestServer(provider, { PODWATCH_DEADLINE_MIN_MS: "100" }))); // test only: held calls' deadlines seconds ahead
  afterAll(() => s?.stop());

  const ofType = async (podId: string, type: string): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events.filter(
      (e: Ev) => e.type === type,
    );
  const crossed = (podId: string, n = 1) =>
    eventually(
      () => ofType(podId, "budget.exceeded"),
      (l) => l.length >= n,
      `budget.exceeded #${n}`,
    );
  const putBudget = (podId: string, budgetId: string, body: object, auth?: { token: string }) =>
    api(s.url, "PUT", `/api/v1/pods/${podId}/budgets/${budgetId}`, body, auth);
  const hook = async (token: string, body: unknown, query = "") => {
    const res = await fetch(`${s.url}/api/v1/hooks/claude-code${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  /** A started pod: impl works, chair steers, cc controls cost. */
  async function pod(name: string) {
    const { podId, tokens } = await agentPod(s.url, name, {
      impl: "implementer",
      chair: "chair",
      cc: "cost_controller",
    });
    const as =
      (actor: string) =>
      (type: string, body: object, extra: object = {}) =>
        api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/events`,
          { type, actor, body, ...extra },
          { token: tokens[actor]! },
        );
    expect((await as("chair")("pod.scope_agreed", { scope: "s", successCriteria: ["c"] })).status).toBe(201);
    expect((await as("chair")("pod.started", {})).status).toBe(201);
    return { podId, tokens, impl: as("impl"), chair: as("chair"), cc: as("cc") };
  }

  it("tokens, hold_tools: crossing by a usage report is reported once; the agent's next tool call is held for a person who sees the budget, and an answer releases it; set again, it crosses again", async () => {
    const p = await pod("tokens-hold");
    expect(
      (
        await putBudget(p.podId, "b-tok", {
          agentId: "impl",
          metric: "tokens",
          limit: 1000,
          then: "hold_tools",
        })
      ).status,
    ).toBe(200);
    expect((await p.impl("usage.reported", { model: "m", inputTokens: 700, outputTokens: 200 })).status).toBe(
      201,
    );
    expect((await p.impl("usage.reported", { model: "m", inputTokens: 90, outputTokens: 60 })).status).toBe(
      201,
    );
    const [exceeded] = await crossed(p.podId);
    expect(exceeded).toMatchObject({
      actor: "podwatch",
      body: {
        budget: "b-tok",
        limit: 1000,
        used: 1050,
        metric: "tokens",
        agentId: "impl",
        then: "hold_tools",
      },
    });
    // However many reports follow, the round is reported once.
    for (let i = 0; i < 5; i++)
      expect((await p.impl("usage.reported", { model: "m", inputTokens: 10 })).status).toBe(201);
    await sleep(500);
    expect(await ofType(p.podId, "budget.exceeded")).toHaveLength(1);
    const budgets = (await api(s.url, "GET", `/api/v1/pods/${p.podId}/budgets`)).body.budgets;
    expect(budgets).toEqual([
      expect.objectContaining({
        budgetId: "b-tok",
        used: 1100,
        limit: 1000,
        exceeded: expect.objectContaining({ seq: exceeded!.seq, used: 1050 }),
      }),
    ]);

    // The pod's rule asks default to "allow" when nobody answers; a budget's hold never does.
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${p.podId}/events`, {
          type: "agent.policy.set",
          actor: "ops-admin",
          body: { rules: [], ask: { minutes: 5, then: "allow" } },
        })
      ).status,
    ).toBe(201);
    // The next PreToolUse (no rule of any policy speaks) asks a person, naming the budget and its numbers.
    const held = hook(
      p.tokens["impl"]!,
      { ...readHookFixture("pre-tool-use-bash"), tool_use_id: "toolu_b1" },
      "?wait=60",
    );
    const [asked] = await eventually(
      () => ofType(p.podId, "tool.approval.requested"),
      (l) => l.length > 0,
      "the held call",
    );
    expect(asked!.body.context[0]).toBe(
      "Budget b-tok of impl crossed: 1050 of 1000 tokens: podwatch asks before each tool call",
    );
    expect(asked!.body.deadline).toMatchObject({ then: "answer", answer: "deny" });
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${p.podId}/events`, {
          type: "tool.approval.answered",
          actor: "ops-admin",
          body: { requestId: asked!.body.requestId, decision: "allow", reason: "go on" },
        })
      ).status,
    ).toBe(201);
    expect((await held).body).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        permissionDecisionReason: "go on",
      },
    });

    // Raised: a new round; crossing it again is reported again, and the hold is back.
    expect(
      (
        await putBudget(p.podId, "b-tok", {
          agentId: "impl",
          metric: "tokens",
          limit: 1200,
          then: "hold_tools",
        })
      ).status,
    ).toBe(200);
    expect(
      (await api(s.url, "GET", `/api/v1/pods/${p.podId}/state`)).body.inbox.find(
        (i: { id: string }) => i.id === "budget:b-tok",
      ),
    ).toBeUndefined();
    expect((await p.impl("usage.reported", { model: "m", outputTokens: 150 })).status).toBe(201);
    const [, again] = await crossed(p.podId, 2);
    expect(again!.body).toMatchObject({ budget: "b-tok", limit: 1200, used: 1250 });
    expect(again!.id).not.toBe(exceeded!.id);
  });

  it("cost_usd, notify: the inbox shows the item with its numbers and nothing else follows (a second node racing stores no second report)", async () => {
    const p = await pod("cost-notify");
    const secondNode = new DeadlineScheduler(s.app);
    secondNode.start();
    expect((await putBudget(p.podId, "b-cost", { metric: "cost_usd", limit: 5 })).status).toBe(200); // the whole pod; then defaults to notify
    expect((await p.impl("usage.reported", { model: "opus", costUsd: 3.1 })).status).toBe(201);
    expect((await p.chair("usage.reported", { model: "haiku", costUsd: 2.1 })).status).toBe(201);
    const [e] = await crossed(p.podId);
    await sleep(300);
    await secondNode.stop();
    expect(await ofType(p.podId, "budget.exceeded")).toHaveLength(1);
    expect(e!.body).toEqual({
      budget: "b-cost",
      limit: 5,
      used: 5.2,
      metric: "cost_usd",
      then: "notify",
      round: expect.any(Number),
    });
    const item = (await api(s.url, "GET", "/api/v1/inbox")).body.items.find(
      (i: { podId: string; kind: string }) => i.podId === p.podId && i.kind === "budget",
    );
    expect(item).toMatchObject({
      id: "budget:b-cost",
      title: "Budget b-cost crossed: 5.20 of 5 USD",
      subject: { kind: "budget", id: "b-cost" },
    });
    const state = (await api(s.url, "GET", `/api/v1/pods/${p.podId}/state`)).body;
    expect(state.status).toBe("active");
    expect(
      (await hook(p.tokens["impl"]!, { ...readHookFixture("pre-tool-use-bash"), tool_use_id: "toolu_c1" }))
        .body,
    ).toEqual({}); // no hold
  });

  it("tool_calls, pause_pod: the hook's tool calls count; crossing pauses the pod and pausable work waits", async () => {
    const p = await pod("calls-pause");
    // The cost controller sets it, with its own agent token.
    expect(
      (
        await putBudget(
          p.podId,
          "b-calls",
          { agentId: "impl", metric: "tool_calls", limit: 2, then: "pause_pod" },
          { token: p.tokens["cc"]! },
        )
      ).status,
    ).toBe(200);
    // … which an implementer may not.
    const refused = await putBudget(
      p.podId,
      "b-mine",
      { agentId: "impl", metric: "tool_calls", limit: 1000 },
      { token: p.tokens["impl"]! },
    );
    expect([refused.status, refused.body.error.code]).toEqual([409, "budget_authority"]);
    for (const id of ["toolu_p1", "toolu_p2"])
      expect(
        (await hook(p.tokens["impl"]!, { ...readHookFixture("pre-tool-use-bash"), tool_use_id: id })).status,
      ).toBe(200);
    const [e] = await crossed(p.podId);
    expect(e!.body).toMatchObject({ budget: "b-calls", used: 2, then: "pause_pod" });
    const state = (await api(s.url, "GET", `/api/v1/pods/${p.podId}/state`)).body;
    expect(state.status).toBe("paused");
    const task = await p.impl("task.added", { taskId: "t1", description: "more work" });
    expect([task.status, task.body.error.code]).toEqual([409, "pod_paused"]);
    // The chair agent may not resume past the budget: a person does.
    const agentResume = await p.chair("pod.resumed", {});
    expect([agentResume.status, agentResume.body.error.code]).toEqual([409, "budget_paused"]);
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${p.podId}/events`, {
          type: "pod.resumed",
          actor: "ops-admin",
          body: {},
        })
      ).status,
    ).toBe(201);
    expect((await p.impl("task.added", { taskId: "t1", description: "more work" })).status).toBe(201);
  });

  it("wall_minutes: a pod's active time crosses by the clock alone; an agent's session time with its events", async () => {
    const p = await pod("wall");
    expect((await putBudget(p.podId, "b-pod-wall", { metric: "wall_minutes", limit: 0.02 })).status).toBe(
      200,
    ); // 1.2 s
    const [e] = await crossed(p.podId); // nothing else is appended: the scheduler wakes for it
    expect(e!.body).toMatchObject({ budget: "b-pod-wall", metric: "wall_minutes", limit: 0.02 });
    expect(e!.body.used).toBeGreaterThanOrEqual(0.02);
    expect(
      (await putBudget(p.podId, "b-impl-wall", { agentId: "impl", metric: "wall_minutes", limit: 0.01 }))
        .status,
    ).toBe(200); // 0.6 s of session
    expect((await p.impl("session.started", { via: "sdk" }, { sessionId: "s-1" })).status).toBe(201);
    await sleep(700);
    expect((await p.impl("prompt.submitted", { chars: 5 }, { sessionId: "s-1" })).status).toBe(201);
    const [, agent] = await crossed(p.podId, 2);
    expect(agent!.body).toMatchObject({ budget: "b-impl-wall", agentId: "impl", metric: "wall_minutes" });
  });

  it("the API: bounded bodies and ids, removal, what each caller is told", async () => {
    const p = await pod("api");
    for (const bad of [
      { metric: "tokens", limit: -1 },
      { metric: "tokens", limit: 0 },
      { metric: "bytes", limit: 5 },
      { metric: "tokens", limit: 1e13 },
      { metric: "tokens", limit: 5, then: "explode" },
      { metric: "tokens", limit: 5, extra: 1 },
      { metric: "tokens" },
      { metric: "tokens", limit: "5" },
    ]) {
      const r = await putBudget(p.podId, "b", bad);
      expect([r.status, r.body.error.code], JSON.stringify(bad)).toEqual([400, "invalid_request"]);
    }
    expect((await putBudget(p.podId, "__proto__", { metric: "tokens", limit: 5 })).status).toBe(400);
    expect((await putBudget(p.podId, "b", { agentId: "nobody", metric: "tokens", limit: 5 })).status).toBe(
      422,
    );
    const set = await putBudget(p.podId, "b", { agentId: "impl", metric: "tokens", limit: 5 });
    expect(set.body.budget).toMatchObject({
      budgetId: "b",
      agentId: "impl",
      metric: "tokens",
      limit: 5,
      then: "notify",
      used: 0,
      by: "admin:PODWATCH_ADMIN_TOKEN",
      exceeded: null,
    });
    const gone = await api(s.url, "DELETE", `/api/v1/pods/${p.podId}/budgets/b`);
    expect([gone.status, gone.body.budget]).toEqual([200, null]);
    const [removal] = (await ofType(p.podId, "budget.set")).slice(-1);
    expect(removal!.body).toEqual({
      budgetId: "b",
      agentId: "impl",
      metric: "tokens",
      limit: null,
      then: "notify",
    });
    expect((await api(s.url, "DELETE", `/api/v1/pods/${p.podId}/budgets/b`)).status).toBe(404);
    expect((await api(s.url, "GET", `/api/v1/pods/${p.podId}/budgets`)).body).toEqual({ budgets: [] });
    expect((await api(s.url, "GET", `/api/v1/pods/no-such-pod/budgets`)).status).toBe(404);
  });

  it("the typed client's round trip: each answer is exactly what its operation's output schema says", async () => {
    const p = await pod("typed");
    const options = { base: s.url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } };
    const set = await callApi(
      setBudgetRoute,
      {
        podId: p.podId,
        budgetId: "b-typed",
        agentId: "impl",
        metric: "cost_usd",
        limit: 2.5,
        then: "notify",
      },
      options,
    );
    expect(budgetOperations.setBudget.output.parse(set)).toEqual(set);
    expect(set.budget).toMatchObject({ budgetId: "b-typed", agentId: "impl", limit: 2.5, used: 0 });
    const listed = await callApi(listBudgetsRoute, { podId: p.podId }, options);
    expect(budgetOperations.listBudgets.output.parse(listed)).toEqual(listed);
    expect(listed.budgets.map((b) => b.budgetId)).toEqual(["b-typed"]);
    const removed = await callApi(removeBudgetRoute, { podId: p.podId, budgetId: "b-typed" }, options);
    expect(budgetOperations.removeBudget.output.parse(removed)).toEqual(removed);
    expect(removed.budget).toBeNull();
  });
});
