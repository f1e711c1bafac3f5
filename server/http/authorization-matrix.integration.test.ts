// Every API route and server action × every kind of caller: the server allows
// exactly what the access model says, whatever the UI shows.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { resolveIdentity } from "../access/resolve-identity";
import { peopleOperations } from "../access/people-operations";
import { memberOperations } from "../access/member-operations";
import { budgetOperations } from "../budgets/budget-operations";
import { agentTokenOperations } from "../access/agent-token-operations";
import { performOperation } from "../web/perform-operation";
import { webhookOperations } from "../webhooks/webhook-operations";
import { podOperations } from "../pods/pod-operations";
import { shareLinkOperations } from "../access/share-link-operations";
import { notifyOperations } from "../notify/notify-operations";
import { readHookFixture } from "../hooks/fixtures";
import { sessionSteerOperations } from "../steer/steer-operations";
import { steerOperations } from "../pods/steer-operations";
import { inboxOperations } from "../pods/inbox-operations";

type Caller =
  "anonymous" | "viewer" | "approver" | "admin" | "token" | "otherToken" | "revokedToken" | "share";
const CALLERS: Caller[] = [
  "anonymous",
  "viewer",
  "approver",
  "admin",
  "token",
  "otherToken",
  "revokedToken",
  "share",
];
type Auth = { token?: string; cookie?: string } | null;

const seed = (name: string) =>
  readFileSync(join(import.meta.dirname, "..", "testing", "seed-examples", name), "utf8");

describe("authorization matrix", () => {
  let s: TestServer;
  let podId: string;
  const auth = {} as Record<Caller, Auth>;

  async function person(access: "viewer" | "approver" | "admin") {
    const email = `${access}-${randomUUID().slice(0, 6)}@example.com`;
    const password = "a long enough password";
    expect((await api(s.url, "POST", "/api/v1/users", { email, name: access, password })).status).toBe(201);
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId: email,
          kind: "human",
          displayName: access,
          roles: [access],
        })
      ).status,
    ).toBe(201);
    const res = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(200);
    return {
      cookie: res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; "),
    };
  }

  beforeAll(async () => {
    // Every route is tried with a revoked token: the failures must not trip the per-IP limit (its own test is retry-after's).
    s = await startTestServer("sqlite", { PODWATCH_AUTH_FAILURES_PER_MINUTE: "1000" });
    podId = (await api(s.url, "POST", "/api/v1/pods", { name: "guarded", mode: "collaboration" })).body.id;
    const otherPod = (await api(s.url, "POST", "/api/v1/pods", { name: "elsewhere", mode: "collaboration" }))
      .body.id;
    for (const [pod, member] of [
      [podId, "bot"],
      [podId, "old-bot"],
      [otherPod, "bot"],
    ] as const) {
      expect(
        (
          await api(s.url, "POST", `/api/v1/pods/${pod}/members`, {
            memberId: member,
            kind: "agent",
            displayName: member,
            roles: ["implementer"],
          })
        ).status,
      ).toBe(201);
    }
    const token = async (pod: string, member: string) =>
      (await api(s.url, "POST", `/api/v1/pods/${pod}/members/${member}/tokens`, { label: "matrix" })).body;
    const mine = await token(podId, "bot");
    const revoked = await token(podId, "old-bot");
    expect((await api(s.url, "DELETE", `/api/v1/pods/${podId}/tokens/${revoked.id}`)).status).toBe(200);
    const share = (await api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, { expiresInHours: 1 })).body;
    Object.assign(auth, {
      anonymous: null,
      viewer: await person("viewer"),
      approver: await person("approver"),
      admin: await person("admin"),
      token: { token: mine.token },
      otherToken: { token: (await token(otherPod, "bot")).token },
      revokedToken: { token: revoked.token },
      share: { cookie: `pw_share=${share.token}` },
    });
  });
  afterAll(() => s.stop());

  const WATCHERS: Caller[] = ["viewer", "approver", "admin", "token", "share"];
  const note = () => ({ id: randomUUID(), type: "note", actor: "bot", body: { kind: "STATUS", text: "hi" } });
  /** A person on the pod (added by the admin token) whose access a caller may try to change. */
  const humanMember = async () => {
    const memberId = `p-${randomUUID().slice(0, 8)}@example.com`;
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId,
          kind: "human",
          displayName: "p",
          roles: ["viewer"],
        })
      ).status,
    ).toBe(201);
    return memberId;
  };
  /** A webhook endpoint stored as the admin's form would (to a public host: nothing is sent from here), and one delivery in its log. */
  const freshHook = async () => {
    await s.app.store.prisma.webhookEndpoint.deleteMany({ where: { podId, createdBy: "matrix" } }); // a pod holds at most 20
    const id = randomUUID();
    await s.app.store.prisma.webhookEndpoint.create({
      data: {
        id,
        podId,
        url: "https://example.com/hook",
        format: "standard",
        events: '["checkpoint"]',
        secret: "whsec_" + Buffer.alloc(32, 7).toString("base64"),
        createdAt: new Date().toISOString(),
        createdBy: "matrix",
      },
    });
    const deliveryId = randomUUID();
    await s.app.store.prisma.webhookDelivery.create({
      data: {
        id: deliveryId,
        endpointId: id,
        podId,
        messageId: `msg_${deliveryId}`,
        type: "checkpoint",
        payload: "{}",
        status: "failed",
        createdAt: new Date().toISOString(),
      },
    });
    return { id, deliveryId };
  };
  /** A push device of the approver's (to a public literal address: nothing is sent from here). */
  const approversDevice = async () => {
    const p256dh = Buffer.alloc(65, 4).toString("base64url");
    const r = await api(
      s.url,
      "POST",
      "/api/v1/me/push/devices",
      {
        endpoint: `https://1.1.1.1/push/${randomUUID()}`,
        keys: { p256dh, auth: Buffer.alloc(16, 5).toString("base64url") },
      },
      auth.approver,
    );
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const PEOPLE: Caller[] = ["viewer", "approver", "admin"];
  /** A person's own notifications: people only (agents, share links and the admin token have none). */
  const meRoutes: { name: string; allowed: Caller[]; call: (a: Auth) => Promise<{ status: number }> }[] = [
    {
      name: "GET /me/push",
      allowed: PEOPLE,
      call: (a) => api(s.url, "GET", "/api/v1/me/push", undefined, a),
    },
    {
      name: "POST /me/push/devices",
      allowed: PEOPLE,
      call: (a) =>
        api(
          s.url,
          "POST",
          "/api/v1/me/push/devices",
          {
            endpoint: `https://1.1.1.1/push/${randomUUID()}`,
            keys: {
              p256dh: Buffer.alloc(65, 4).toString("base64url"),
              auth: Buffer.alloc(16, 5).toString("base64url"),
            },
          },
          a,
        ),
    },
    // The approver's own device: removed by them; another person gets 404 (covered as allowed: not 401/403), the rest 401/403.
    {
      name: "DELETE /me/push/devices/{d}",
      allowed: PEOPLE,
      call: async (a) =>
        api(s.url, "DELETE", `/api/v1/me/push/devices/${await approversDevice()}`, undefined, a),
    },
    {
      name: "GET /me/preferences",
      allowed: PEOPLE,
      call: (a) => api(s.url, "GET", "/api/v1/me/preferences", undefined, a),
    },
    {
      name: "PUT /me/preferences",
      allowed: PEOPLE,
      call: (a) => api(s.url, "PUT", "/api/v1/me/preferences", { pods: [{ podId, level: "all" }] }, a),
    },
    {
      // As the service worker sends it; an item that is not open is a 409 for those who may answer.
      name: "POST /me/inbox/act",
      allowed: ["approver", "admin"],
      call: async (a) => {
        const headers: Record<string, string> = {
          "content-type": "application/json",
          "x-podwatch-request": "notification",
          "sec-fetch-site": "same-origin",
          origin: s.url,
        };
        if (a?.cookie) headers.cookie = a.cookie;
        if (a?.token) headers.authorization = `Bearer ${a.token}`;
        return fetch(`${s.url}/api/v1/me/inbox/act`, {
          method: "POST",
          headers,
          body: JSON.stringify({ podId, itemId: "escalation:none", action: "option:0" }),
        });
      },
    },
  ];
  const routes: { name: string; allowed: Caller[]; call: (a: Auth) => Promise<{ status: number }> }[] = [
    ...meRoutes,
    {
      name: "GET /pods",
      allowed: [...WATCHERS, "otherToken"],
      call: (a) => api(s.url, "GET", "/api/v1/pods", undefined, a),
    },
    {
      name: "GET /me",
      allowed: [...WATCHERS, "otherToken"],
      call: (a) => api(s.url, "GET", "/api/v1/me", undefined, a),
    },
    {
      name: "GET /inbox",
      allowed: [...WATCHERS, "otherToken"],
      call: (a) => api(s.url, "GET", "/api/v1/inbox", undefined, a),
    },
    {
      name: "POST /pods",
      allowed: [],
      call: (a) => api(s.url, "POST", "/api/v1/pods", { name: "x", mode: "collaboration" }, a),
    },
    ...["", "/events", "/state", "/plan", "/verify"].map((p) => ({
      name: `GET /pods/{id}${p}`,
      allowed: WATCHERS,
      call: (a: Auth) => api(s.url, "GET", `/api/v1/pods/${podId}${p}`, undefined, a),
    })),
    {
      name: "POST /events",
      allowed: ["token"],
      call: (a) => api(s.url, "POST", `/api/v1/pods/${podId}/events`, note(), a),
    },
    // OTLP/HTTP: the token names the pod, so any pod's agent token exports to its own; everyone else is refused.
    ...(
      [
        ["traces", "resourceSpans"],
        ["logs", "resourceLogs"],
        ["metrics", "resourceMetrics"],
      ] as const
    ).map(([signal, key]) => ({
      name: `POST /v1/${signal}`,
      allowed: ["token", "otherToken"] as Caller[],
      call: (a: Auth) => api(s.url, "POST", `/v1/${signal}`, { [key]: [] }, a),
    })),
    {
      name: "GET /pods/{id}/otlp/unmapped",
      allowed: WATCHERS,
      call: (a: Auth) => api(s.url, "GET", `/api/v1/pods/${podId}/otlp/unmapped`, undefined, a),
    },
    // The token names the pod: any pod's agent token reports to its own pod; people, share links (and the admin token, below) are refused.
    {
      name: "POST /hooks/claude-code",
      allowed: ["token", "otherToken"],
      call: (a) =>
        api(
          s.url,
          "POST",
          "/api/v1/hooks/claude-code",
          { ...readHookFixture("session-start"), session_id: randomUUID() },
          a,
        ),
    },
    {
      name: "POST /plan",
      allowed: ["token"],
      call: (a) =>
        api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/plan`,
          { tasks: [{ task_id: `t-${randomUUID()}`, description: "d", status: "pending", metadata: {} }] },
          a,
        ),
    },
    {
      name: "POST /workcells",
      allowed: ["token"],
      call: (a) =>
        api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/workcells`,
          { ...JSON.parse(seed("manifest.json")), workcell_id: `wc-${randomUUID()}` },
          a,
        ),
    },
    {
      name: "POST /workcells/{id}/proof",
      allowed: ["token"],
      call: (a) =>
        api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/workcells/wc-42-20250115T143022Z/proof`,
          seed("proof.json"),
          a,
        ),
    },
    {
      name: "POST /members",
      allowed: ["admin"],
      call: (a) =>
        api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/members`,
          { memberId: `m-${randomUUID()}`, kind: "agent", displayName: "m", roles: [] },
          a,
        ),
    },
    {
      name: "POST /members/{m}/tokens",
      allowed: ["admin"],
      call: (a) => api(s.url, "POST", `/api/v1/pods/${podId}/members/bot/tokens`, {}, a),
    },
    {
      name: "GET /tokens",
      allowed: ["admin"],
      call: (a) => api(s.url, "GET", `/api/v1/pods/${podId}/tokens`, undefined, a),
    },
    {
      name: "DELETE /tokens/{t}",
      allowed: ["admin"],
      call: async (a) =>
        api(
          s.url,
          "DELETE",
          `/api/v1/pods/${podId}/tokens/${(await api(s.url, "POST", `/api/v1/pods/${podId}/members/bot/tokens`, {})).body.id}`,
          undefined,
          a,
        ),
    },
    {
      name: "POST /tokens/{t}/rotate",
      allowed: ["admin"],
      call: async (a) =>
        api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/tokens/${(await api(s.url, "POST", `/api/v1/pods/${podId}/members/bot/tokens`, {})).body.id}/rotate`,
          undefined,
          a,
        ),
    },
    {
      name: "POST /share-links",
      allowed: ["admin"],
      call: (a) => api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, {}, a),
    },
    {
      name: "GET /share-links",
      allowed: ["admin"],
      call: (a) => api(s.url, "GET", `/api/v1/pods/${podId}/share-links`, undefined, a),
    },
    {
      name: "DELETE /share-links/{l}",
      allowed: ["admin"],
      call: async (a) =>
        api(
          s.url,
          "DELETE",
          `/api/v1/pods/${podId}/share-links/${(await api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, {})).body.id}`,
          undefined,
          a,
        ),
    },
    {
      name: "GET /webhooks",
      allowed: ["admin"],
      call: (a) => api(s.url, "GET", `/api/v1/pods/${podId}/webhooks`, undefined, a),
    },
    {
      name: "POST /webhooks",
      allowed: ["admin"],
      call: (a) =>
        api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/webhooks`,
          { url: "https://1.1.1.1/podwatch-matrix", events: ["checkpoint"] },
          a,
        ),
    },
    {
      name: "PATCH /webhooks/{w}",
      allowed: ["admin"],
      call: async (a) =>
        api(
          s.url,
          "PATCH",
          `/api/v1/pods/${podId}/webhooks/${(await freshHook()).id}`,
          { enabled: false },
          a,
        ),
    },
    {
      name: "DELETE /webhooks/{w}",
      allowed: ["admin"],
      call: async (a) =>
        api(s.url, "DELETE", `/api/v1/pods/${podId}/webhooks/${(await freshHook()).id}`, undefined, a),
    },
    {
      name: "POST /webhooks/{w}/test",
      allowed: ["admin"],
      call: async (a) =>
        api(s.url, "POST", `/api/v1/pods/${podId}/webhooks/${(await freshHook()).id}/test`, undefined, a),
    },
    {
      name: "GET /webhooks/{w}/deliveries",
      allowed: ["admin"],
      call: async (a) =>
        api(
          s.url,
          "GET",
          `/api/v1/pods/${podId}/webhooks/${(await freshHook()).id}/deliveries`,
          undefined,
          a,
        ),
    },
    {
      name: "POST /webhooks/{w}/deliveries/{d}/redeliver",
      allowed: ["admin"],
      call: async (a) => {
        const h = await freshHook();
        return api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/webhooks/${h.id}/deliveries/${h.deliveryId}/redeliver`,
          undefined,
          a,
        );
      },
    },
    {
      name: "POST /users",
      allowed: [],
      call: (a) =>
        api(
          s.url,
          "POST",
          "/api/v1/users",
          { email: `u-${randomUUID()}@example.com`, name: "u", password: "a long enough password" },
          a,
        ),
    },
    {
      name: "POST /invites",
      allowed: [],
      call: (a) => api(s.url, "POST", "/api/v1/invites", { email: `i-${randomUUID()}@example.com` }, a),
    },
    { name: "GET /users", allowed: [], call: (a) => api(s.url, "GET", "/api/v1/users", undefined, a) },
    {
      name: "POST /users/{id}/reset",
      allowed: [],
      call: (a) => api(s.url, "POST", "/api/v1/users/no-such-user/reset", undefined, a),
    },
    {
      name: "PATCH /members/{m}",
      allowed: ["admin"],
      call: async (a) =>
        api(
          s.url,
          "PATCH",
          `/api/v1/pods/${podId}/members/${await humanMember()}`,
          { access: "approver" },
          a,
        ),
    },
    {
      name: "DELETE /members/{m}",
      allowed: ["admin"],
      call: async (a) =>
        api(s.url, "DELETE", `/api/v1/pods/${podId}/members/${await humanMember()}`, undefined, a),
    },
    {
      name: "PATCH /users/{id}",
      allowed: [],
      call: (a) => api(s.url, "PATCH", "/api/v1/users/no-such-user", { canCreatePods: true }, a),
    },
    // Budgets: watchers read them; approvers set them; an agent token may try (the domain lets the chair or the cost controller: "bot" gets 409).
    {
      name: "GET /pods/{id}/budgets",
      allowed: WATCHERS,
      call: (a) => api(s.url, "GET", `/api/v1/pods/${podId}/budgets`, undefined, a),
    },
    {
      name: "PUT /pods/{id}/budgets/{b}",
      allowed: ["approver", "admin", "token"],
      call: (a) =>
        api(
          s.url,
          "PUT",
          `/api/v1/pods/${podId}/budgets/b-${randomUUID().slice(0, 8)}`,
          { metric: "tokens", limit: 1000 },
          a,
        ),
    },
    {
      name: "DELETE /pods/{id}/budgets/{b}",
      allowed: ["approver", "admin", "token"],
      call: async (a) => {
        const budgetId = `b-${randomUUID().slice(0, 8)}`;
        expect(
          (
            await api(s.url, "PUT", `/api/v1/pods/${podId}/budgets/${budgetId}`, {
              metric: "tool_calls",
              limit: 10,
            })
          ).status,
        ).toBe(200);
        return api(s.url, "DELETE", `/api/v1/pods/${podId}/budgets/${budgetId}`, undefined, a);
      },
    },
    {
      name: "POST /pods/{id}/archive",
      allowed: ["admin"],
      call: (a) => api(s.url, "POST", `/api/v1/pods/${podId}/archive`, undefined, a),
    },
    {
      name: "POST /pods/{id}/unarchive",
      allowed: ["admin"],
      call: (a) => api(s.url, "POST", `/api/v1/pods/${podId}/unarchive`, undefined, a),
    },
    // Signals: a pod's for its watchers; the export is everyone's own pods (another pod's token sees its own); a record needs the pod
    // (not through a share link: signed over the events as written, it names people by email); the key is public.
    {
      name: "GET /pods/{id}/signals",
      allowed: WATCHERS,
      call: (a) => api(s.url, "GET", `/api/v1/pods/${podId}/signals`, undefined, a),
    },
    {
      name: "GET /signals",
      allowed: [...WATCHERS, "otherToken"],
      call: (a) => api(s.url, "GET", "/api/v1/signals", undefined, a),
    },
    {
      name: "GET /signals/record",
      allowed: WATCHERS.filter((c) => c !== "share"),
      call: (a) => api(s.url, "GET", `/api/v1/signals/record?pod=${podId}&agent=bot`, undefined, a),
    },
    {
      name: "GET /signals/key (public)",
      allowed: CALLERS,
      call: (a) => api(s.url, "GET", "/api/v1/signals/key", undefined, a),
    },
    {
      name: "GET /schema (public)",
      allowed: CALLERS,
      call: (a) => api(s.url, "GET", "/api/v1/schema", undefined, a),
    },
  ];

  for (const route of routes) {
    it(route.name, async () => {
      const got: Record<string, number> = {};
      for (const caller of CALLERS) got[caller] = (await route.call(auth[caller])).status;
      for (const caller of CALLERS) {
        const status = got[caller]!;
        if (route.allowed.includes(caller))
          expect([401, 403], `${caller} should be allowed (${status})`).not.toContain(status);
        else if (caller === "anonymous" || caller === "revokedToken")
          expect(status, `${caller} should get 401`).toBe(401);
        else expect(status, `${caller} should get 403`).toBe(403);
      }
    });
  }

  it("Claude Code hooks report with an agent token: the admin token is refused", async () => {
    const r = await api(s.url, "POST", "/api/v1/hooks/claude-code", readHookFixture("session-start"), {
      token: TEST_ADMIN_TOKEN,
    });
    expect([r.status, r.body.error.code]).toEqual([403, "agent_token_required"]);
  });
  it("the /me notification routes belong to a person: the admin token is refused", async () => {
    for (const route of meRoutes)
      expect((await route.call({ token: TEST_ADMIN_TOKEN })).status, route.name).toBe(403);
  });
  it("one person cannot remove another's push device", async () => {
    const id = await approversDevice();
    expect((await api(s.url, "DELETE", `/api/v1/me/push/devices/${id}`, undefined, auth.viewer)).status).toBe(
      404,
    );
    expect(
      (await api(s.url, "GET", "/api/v1/me/push", undefined, auth.approver)).body.devices.map(
        (d: { id: string }) => d.id,
      ),
    ).toContain(id);
  });

  const headersOf = (a: Auth) =>
    new Headers({
      ...(a?.cookie ? { cookie: a.cookie } : {}),
      ...(a?.token ? { authorization: `Bearer ${a.token}` } : {}),
    });
  const actions = [
    {
      name: "decide",
      action: inboxOperations.decide,
      input: () => ({
        podId,
        subject: { kind: "milestone", id: `m-${randomUUID()}` },
        verdict: "accept",
        rationale: "ok",
      }),
    },
    {
      name: "answerEscalation",
      action: inboxOperations.answerEscalation,
      input: () => ({ podId, escalationId: "missing", answer: "yes" }),
    },
    { name: "setPaused", action: steerOperations.setPaused, input: () => ({ podId, paused: true }) },
    {
      name: "assignRole",
      action: steerOperations.assignRole,
      input: () => ({ podId, memberId: "bot", role: "verifier" }),
    },
    {
      name: "rotateRole",
      action: steerOperations.rotateRole,
      input: () => ({ podId, role: "implementer", from: "bot", to: "old-bot" }),
    },
    {
      name: "handOff",
      action: steerOperations.handOff,
      input: () => ({ podId, to: "bot", reason: "your turn" }),
    },
    {
      name: "addTask",
      action: steerOperations.addTask,
      input: () => ({ podId, description: "from the matrix" }),
    },
    {
      name: "splitTask",
      action: steerOperations.splitTask,
      input: () => ({ podId, taskId: "nope", parts: ["a", "b"] }),
    },
    {
      name: "steerSession",
      action: sessionSteerOperations.steerSession,
      input: () => ({ podId, sessionId: "nope", steerId: randomUUID(), act: "message" as const, text: "hi" }),
    },
  ];
  for (const { name, action, input } of actions) {
    it(`server action ${name}`, async () => {
      for (const caller of CALLERS) {
        const resolved = await resolveIdentity(s.app.access, headersOf(auth[caller]));
        const identity = resolved === "invalid" ? ({ kind: "anonymous" } as const) : resolved;
        const result = await performOperation(s.app, identity, action, input());
        const allowed = caller === "approver" || caller === "admin";
        if (allowed)
          expect(
            result.ok || !["unauthenticated", "forbidden"].includes(result.code),
            `${caller}: ${JSON.stringify(result)}`,
          ).toBe(true);
        else expect(result.ok ? "ok" : result.code, caller).toMatch(/^(unauthenticated|forbidden)$/);
      }
    });
  }

  // Agents and their tokens from the control room: pod admins only, like their API twins.
  const freshToken = async () =>
    (await api(s.url, "POST", `/api/v1/pods/${podId}/members/bot/tokens`, {})).body.id as string;
  const calls = [
    {
      name: "addAgent",
      call: agentTokenOperations.addAgent,
      input: async () => ({ podId, memberId: `a-${randomUUID()}`, displayName: "a", roles: ["verifier"] }),
    },
    {
      name: "createAgentToken",
      call: agentTokenOperations.createAgentToken,
      input: async () => ({ podId, memberId: "bot" }),
    },
    {
      name: "revokeAgentToken",
      call: agentTokenOperations.revokeAgentToken,
      input: async () => ({ podId, tokenId: await freshToken() }),
    },
    {
      name: "rotateAgentToken",
      call: agentTokenOperations.rotateAgentToken,
      input: async () => ({ podId, tokenId: await freshToken() }),
    },
  ];
  for (const { name, call, input } of calls) {
    it(`server action ${name}`, async () => {
      for (const caller of CALLERS) {
        const resolved = await resolveIdentity(s.app.access, headersOf(auth[caller]));
        const identity = resolved === "invalid" ? ({ kind: "anonymous" } as const) : resolved;
        const result = await performOperation(s.app, identity, call, await input());
        if (caller === "admin") expect(result.ok, `${caller}: ${JSON.stringify(result)}`).toBe(true);
        else expect(result.ok ? "ok" : result.code, caller).toMatch(/^(unauthenticated|forbidden)$/);
      }
    });
  }

  it("server action setBudget: approvers and admins of the pod", async () => {
    for (const caller of CALLERS) {
      const resolved = await resolveIdentity(s.app.access, headersOf(auth[caller]));
      const identity = resolved === "invalid" ? ({ kind: "anonymous" } as const) : resolved;
      const result = await performOperation(s.app, identity, budgetOperations.setBudget, {
        podId,
        budgetId: `b-${randomUUID().slice(0, 8)}`,
        metric: "cost_usd",
        limit: 2.5,
        then: "notify",
      });
      if (caller === "approver" || caller === "admin")
        expect(result.ok, `${caller}: ${JSON.stringify(result)}`).toBe(true);
      else expect(result.ok ? "ok" : result.code, caller).toMatch(/^(unauthenticated|forbidden)$/);
    }
  });

  // People from the control room: pod access for pod admins; invites and resets for site admins only (none of
  // these callers is one); one's own password for any signed-in person (here refused for a wrong current password).
  const peopleCalls = [
    {
      name: "addPersonToPod",
      call: memberOperations.addPersonToPod,
      input: async () => ({ podId, email: "nobody@example.com", access: "viewer" }),
      allowed: ["admin"],
    },
    {
      name: "setPersonAccess",
      call: memberOperations.setPersonAccess,
      input: async () => ({ podId, memberId: await humanMember(), access: "approver" }),
      allowed: ["admin"],
    },
    {
      name: "removePersonFromPod",
      call: memberOperations.removePersonFromPod,
      input: async () => ({ podId, memberId: await humanMember() }),
      allowed: ["admin"],
    },
  ];
  for (const { name, call, input, allowed } of peopleCalls) {
    it(`server action ${name}`, async () => {
      for (const caller of CALLERS) {
        const resolved = await resolveIdentity(s.app.access, headersOf(auth[caller]));
        const identity = resolved === "invalid" ? ({ kind: "anonymous" } as const) : resolved;
        const result = await performOperation(s.app, identity, call, await input());
        if (allowed.includes(caller))
          expect(
            result.ok || !["unauthenticated", "forbidden"].includes(result.code),
            `${caller}: ${JSON.stringify(result)}`,
          ).toBe(true);
        else expect(result.ok ? "ok" : result.code, caller).toMatch(/^(unauthenticated|forbidden)$/);
      }
    });
  }
  const siteCalls = [
    {
      name: "invitePerson",
      call: peopleOperations.invitePerson,
      input: () => ({ email: `i-${randomUUID()}@example.com` }),
      allowed: [] as Caller[],
    },
    {
      name: "resetPassword",
      call: peopleOperations.resetPassword,
      input: () => ({ userId: "no-such-user" }),
      allowed: [] as Caller[],
    },
    {
      name: "changePassword",
      call: peopleOperations.changePassword,
      input: () => ({
        currentPassword: "not the password",
        newPassword: "a new long password",
        confirm: "a new long password",
      }),
      allowed: ["viewer", "approver", "admin"] as Caller[],
    },
  ];
  for (const { name, call, input, allowed } of siteCalls) {
    it(`server action ${name}`, async () => {
      for (const caller of CALLERS) {
        const resolved = await resolveIdentity(s.app.access, headersOf(auth[caller]));
        const identity = resolved === "invalid" ? ({ kind: "anonymous" } as const) : resolved;
        const result = await performOperation(s.app, identity, call, input(), {
          headers: headersOf(auth[caller]),
        });
        if (allowed.includes(caller)) expect(result.ok ? "ok" : result.code, caller).toBe("wrong_password");
        else expect(result.ok ? "ok" : result.code, caller).toMatch(/^(unauthenticated|forbidden)$/);
      }
    });
  }

  // A pod's lifecycle and its share links from the control room: pod admins only, like their API twins.
  // Starting and closing act on a pod of their own (with the admin person as its admin), so this pod stays open.
  const podOfItsOwn = async () => {
    const me = await resolveIdentity(s.app.access, headersOf(auth.admin));
    const id: string = (
      await api(s.url, "POST", "/api/v1/pods", {
        name: "lifecycle",
        mode: "collaboration",
        scope: "s",
        successCriteria: ["c"],
      })
    ).body.id;
    if (me !== "invalid" && me.kind === "user")
      expect(
        (
          await api(s.url, "POST", `/api/v1/pods/${id}/members`, {
            memberId: me.email,
            kind: "human",
            displayName: "admin",
            roles: ["admin"],
          })
        ).status,
      ).toBe(201);
    return id;
  };
  const freshLink = async () =>
    (await api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, {})).body.id as string;
  const lifecycle = [
    {
      name: "startPod",
      run: performOperation as never,
      action: podOperations.startPod as never,
      input: async () => ({ podId: await podOfItsOwn() }),
    },
    {
      name: "closePod",
      run: performOperation as never,
      action: podOperations.closePod as never,
      input: async () => ({ podId: await podOfItsOwn() }),
    },
    {
      name: "archivePod",
      run: performOperation as never,
      action: podOperations.archivePod as never,
      input: async () => ({ podId }),
    },
    {
      name: "unarchivePod",
      run: performOperation as never,
      action: podOperations.unarchivePod as never,
      input: async () => ({ podId }),
    },
    {
      name: "createShareLink",
      run: performOperation as never,
      action: shareLinkOperations.createShareLink as never,
      input: async () => ({ podId, link: {} }),
    },
    {
      name: "listShareLinks",
      run: performOperation as never,
      action: shareLinkOperations.listShareLinks as never,
      input: async () => ({ podId }),
    },
    {
      name: "revokeShareLink",
      run: performOperation as never,
      action: shareLinkOperations.revokeShareLink as never,
      input: async () => ({ podId, linkId: await freshLink() }),
    },
    {
      name: "listWebhooks",
      run: performOperation as never,
      action: webhookOperations.listWebhooks as never,
      input: async () => ({ podId }),
    },
    {
      name: "createWebhook",
      run: performOperation as never,
      action: webhookOperations.createWebhook as never,
      input: async () => ({
        podId,
        webhook: { url: "https://1.1.1.1/podwatch-matrix", events: ["inbox.opened"] },
      }),
    },
    {
      name: "updateWebhook",
      run: performOperation as never,
      action: webhookOperations.updateWebhook as never,
      input: async () => ({ podId, endpointId: (await freshHook()).id, update: { enabled: false } }),
    },
    {
      name: "deleteWebhook",
      run: performOperation as never,
      action: webhookOperations.deleteWebhook as never,
      input: async () => ({ podId, endpointId: (await freshHook()).id }),
    },
    {
      name: "testWebhook",
      run: performOperation as never,
      action: webhookOperations.testWebhook as never,
      input: async () => ({ podId, endpointId: (await freshHook()).id }),
    },
    {
      name: "listWebhookDeliveries",
      run: performOperation as never,
      action: webhookOperations.listWebhookDeliveries as never,
      input: async () => ({ podId, endpointId: (await freshHook()).id }),
    },
    {
      name: "redeliverWebhook",
      run: performOperation as never,
      action: webhookOperations.redeliverWebhook as never,
      input: async () => ({
        podId,
        ...(await freshHook().then((h) => ({ endpointId: h.id, deliveryId: h.deliveryId }))),
      }),
    },
  ];
  for (const { name, run, action, input } of lifecycle) {
    it(`server action ${name}`, async () => {
      for (const caller of CALLERS) {
        const resolved = await resolveIdentity(s.app.access, headersOf(auth[caller]));
        const identity = resolved === "invalid" ? ({ kind: "anonymous" } as const) : resolved;
        const result = await (run as typeof performOperation)(s.app, identity, action, await input());
        if (caller === "admin") expect(result.ok, `${caller}: ${JSON.stringify(result)}`).toBe(true);
        else expect(result.ok ? "ok" : result.code, caller).toMatch(/^(unauthenticated|forbidden)$/);
      }
    });
  }
  // A person's notifications from the control room: any signed-in person, for themselves (the admin token is no person).
  for (const { name, call, input } of [
    { name: "readNotifications", call: notifyOperations.readNotifications, input: async () => ({}) },
    {
      name: "addPushDevice",
      call: notifyOperations.addPushDevice,
      input: async () => ({
        endpoint: `https://1.1.1.1/push/${randomUUID()}`,
        keys: {
          p256dh: Buffer.alloc(65, 4).toString("base64url"),
          auth: Buffer.alloc(16, 5).toString("base64url"),
        },
      }),
    },
    {
      name: "removePushDevice",
      call: notifyOperations.removePushDevice,
      input: async () => ({ deviceId: await approversDevice() }),
    },
    {
      name: "saveNotificationPreferences",
      call: notifyOperations.saveNotificationPreferences,
      input: async () => ({ pods: [{ podId, level: "decisions" }] }),
    },
  ]) {
    it(`server action ${name}`, async () => {
      for (const caller of [...CALLERS, "adminToken"] as const) {
        const resolved =
          caller === "adminToken"
            ? ({ kind: "admin-token", label: "matrix" } as const)
            : await resolveIdentity(s.app.access, headersOf(auth[caller]));
        const identity = resolved === "invalid" ? ({ kind: "anonymous" } as const) : resolved;
        const result = await performOperation(s.app, identity, call, await input(), {
          headers: new Headers({ "user-agent": "matrix" }),
        });
        if (PEOPLE.includes(caller as Caller))
          expect(result.ok || result.code === "not_found", `${caller}: ${JSON.stringify(result)}`).toBe(true);
        else expect(result.ok ? "ok" : result.code, caller).toMatch(/^(unauthenticated|forbidden)$/);
      }
    });
  }

  it("server action createPod", async () => {
    for (const caller of CALLERS) {
      const resolved = await resolveIdentity(s.app.access, headersOf(auth[caller]));
      const identity = resolved === "invalid" ? ({ kind: "anonymous" } as const) : resolved;
      const input = { name: "mine", mode: "collaboration" };
      const result = await performOperation(s.app, identity, podOperations.createPod, input);
      expect(result.ok ? "ok" : result.code, caller).toMatch(/^(unauthenticated|forbidden)$/);
    }
  });

  it("server action setCanCreatePods", async () => {
    for (const caller of CALLERS) {
      const resolved = await resolveIdentity(s.app.access, headersOf(auth[caller]));
      const identity = resolved === "invalid" ? ({ kind: "anonymous" } as const) : resolved;
      const input = { userId: "no-such-user", canCreatePods: true };
      const result = await performOperation(s.app, identity, peopleOperations.setCanCreatePods, input);
      expect(result.ok ? "ok" : result.code, caller).toMatch(/^(unauthenticated|forbidden)$/);
    }
  });

  it("the token's member is who speaks: another actor is a 403 and nothing is stored", async () => {
    const before = (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount;
    const r = await api(
      s.url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      { ...note(), actor: "chair-1" },
      auth.token,
    );
    expect(r.status).toBe(403);
    expect((r.body as { error: { code: string } }).error.code).toBe("actor_mismatch");
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount).toBe(before);
  });

  it("tokens are for agents only: a person acts through their session", async () => {
    const email = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.members.find(
      (m: { kind: string }) => m.kind === "human",
    ).memberId;
    const r = await api(s.url, "POST", `/api/v1/pods/${podId}/members/${email}/tokens`, {});
    expect(r.status).toBe(422);
    expect((r.body as { error: { code: string } }).error.code).toBe("tokens_for_agents");
  });

  it("a person's cookie-authenticated writes must come from our own origin", async () => {
    const r = await fetch(`${s.url}/api/v1/pods/${podId}/share-links`, {
      method: "POST",
      headers: {
        cookie: auth.admin!.cookie!,
        origin: "https://evil.example",
        "content-type": "application/json",
      },
      body: "{}",
    });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("bad_origin");
  });

  it("a revoked token's live tape ends, and it cannot connect again", async () => {
    const { io } = await import("socket.io-client");
    const fresh = (await api(s.url, "POST", `/api/v1/pods/${podId}/members/bot/tokens`, { label: "socket" }))
      .body as { id: string; token: string };
    const socket = io(s.url, { transports: ["websocket"], forceNew: true, auth: { token: fresh.token } });
    socket.on("tape:events", (_frame, ack) => ack?.());
    const live = await new Promise<string>((resolve) => {
      socket.once("tape:live", () => resolve("live"));
      socket.once("tape:error", (e) => resolve(e.message));
      socket.emit("tape:subscribe", { podId, afterSeq: 0 });
    });
    expect(live).toBe("live");
    const ended = new Promise<string>((resolve) => socket.once("disconnect", (reason) => resolve(reason)));
    expect((await api(s.url, "DELETE", `/api/v1/pods/${podId}/tokens/${fresh.id}`)).status).toBe(200);
    expect(await ended).toBe("io server disconnect");
    const again = new Promise<string>((resolve) => socket.once("connect_error", (e) => resolve(e.message)));
    socket.connect();
    expect(await again).toBe("authentication required");
    socket.close();
  });

  it("authentication failures say nothing about why", async () => {
    const wrong = await api(s.url, "GET", "/api/v1/pods", undefined, { token: "pwa_not-a-real-token" });
    const garbage = await api(s.url, "GET", "/api/v1/pods", undefined, { token: "garbage" });
    expect(wrong.body).toEqual(garbage.body);
    expect(wrong.body).toEqual({ error: { code: "unauthenticated", message: "authentication required" } });
  });

  it("tokens record when they were last used", async () => {
    const { tokens } = (await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body as {
      tokens: { memberId: string; label: string; lastUsedAt: string | null; revokedAt: string | null }[];
    };
    const used = tokens.find((t) => t.memberId === "bot" && t.label === "matrix" && !t.revokedAt);
    expect(used?.lastUsedAt).toMatch(/^\d{4}-/);
  });

  it("sends security headers, and a CSP, on every response", async () => {
    const r = await api(s.url, "GET", "/healthz", undefined, null);
    expect(r.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("rate limits", () => {
  it("per token, and per IP for failed authentications", async () => {
    const s = await startTestServer("sqlite", {
      PODWATCH_RATE_LIMIT_PER_MINUTE: "5",
      PODWATCH_AUTH_FAILURES_PER_MINUTE: "3",
    });
    try {
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await api(s.url, "GET", "/api/v1/pods")).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses.slice(5)).toEqual([429, 429]);
      const failures = [];
      for (let i = 0; i < 5; i++)
        failures.push(
          (await api(s.url, "GET", "/api/v1/schema/../pods", undefined, { token: "pwa_wrong" })).status,
        );
      expect(failures).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await s.stop();
    }
  });
});
