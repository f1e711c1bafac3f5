// Every declared operation, against the real server: reachable over REST behind its guard,
// described in the OpenAPI document (which an outside validator accepts as OpenAPI 3.1), and a
// server action wherever the control room calls it. Then the typed browser client's round trip,
// each answer exactly what its output schema says.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { SAMPLE_BODIES } from "../testing/sample-events";
import { callApi } from "../../components/shared/api-client";
import * as routes from "../../components/shared/api-routes";
import { operations } from "./operations";
import { pathParams, type Operation } from "./operation";
import { readsQuery } from "./openapi";
import { performOperation } from "../web/perform-operation";
import { resolveIdentity } from "../access/resolve-identity";
import type { Identity } from "../domain/access/policy";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const rest = operations.filter((op) => op.http);

describe.each(testProviders())("operations on %s", (provider) => {
  let s: TestServer;
  let pod: { podId: string; tokens: Record<string, string> };
  let other: { podId: string; tokens: Record<string, string> };
  /** A signed-in person: what belongs to a person is reached with their session. */
  let person: { cookie: string };
  beforeAll(async () => {
    s = await startTestServer(provider);
    pod = await agentPod(s.url, "ops", { bot: "implementer" });
    other = await agentPod(s.url, "ops-other", { stranger: "implementer" });
    const email = "ops-person@example.com";
    const password = "a long enough password";
    expect((await api(s.url, "POST", "/api/v1/users", { email, name: "Ops", password })).status).toBe(201);
    const signedIn = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: JSON.stringify({ email, password }),
    });
    expect(signedIn.status).toBe(200);
    person = {
      cookie: signedIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; "),
    };
  });
  afterAll(() => s.stop());

  /** The operation's path with this pod and made-up ids; a body of nothing in particular. */
  const call = (op: Operation, auth: { token?: string; cookie?: string } | null) => {
    const url = op.http!.path.replace(/\{([^}]+)\}/g, (_, k: string) =>
      k === "podId" ? pod.podId : `no-such-${k}`,
    );
    const reads = readsQuery(op.http!.method);
    return api(s.url, op.http!.method, url, reads ? undefined : {}, auth);
  };

  for (const op of rest) {
    it(`${op.name} (${op.http!.method} ${op.http!.path}) is reachable over REST behind its guard`, async () => {
      const caller =
        op.guard === "person"
          ? person
          : op.guard === "agent"
            ? { token: pod.tokens.bot! }
            : { token: TEST_ADMIN_TOKEN };
      const reached = await call(op, caller);
      expect([401, 403, 405], JSON.stringify(reached.body)).not.toContain(reached.status);
      expect(String(reached.body?.error?.message ?? "")).not.toMatch(/^no API route/);
      if (op.guard === "public") return;
      const anonymous = await call(op, null);
      expect(anonymous.status).toBe(401);
      // A HEAD answer has no body to name its code in: its status says it.
      // Nor does a door whose refusals are its protocol's (OTLP's google.rpc.Status), not the envelope.
      if (op.http!.method !== "HEAD" && !op.http!.media?.error)
        expect(anonymous.body.error.code).toBe("unauthenticated");
      // A token is no person, not even the admin's.
      if (op.guard === "person")
        expect((await call(op, { token: TEST_ADMIN_TOKEN })).body.error.code).toBe("forbidden");
      // An agent's door: no person's nor the admin's (its pod and member are the token's).
      if (op.guard === "agent") expect((await call(op, { token: TEST_ADMIN_TOKEN })).status).toBe(403);
      if (op.guard === "authenticated" || op.guard === "person" || op.guard === "agent") return;
      // An agent token of another pod has no access to this one, nor any site-wide role.
      expect((await call(op, { token: other.tokens.stranger! })).status).toBe(403);
      // This pod's own agent token is a viewer: refused wherever more is needed (unless its agents may try).
      if (typeof op.guard === "object" && op.guard.pod !== "viewer" && !op.guard.agents)
        expect((await call(op, { token: pod.tokens.bot! })).status).toBe(403);
    });
  }

  for (const op of operations.filter((o) => o.action)) {
    it(`${op.name}, as a server action, is behind the same guard`, async () => {
      const input = { podId: pod.podId };
      expect(await performOperation(s.app, { kind: "anonymous" }, op, input)).toMatchObject({
        ok: false,
        code: "unauthenticated",
      });
      const agent = await resolveIdentity(
        s.app.access,
        new Headers({ authorization: `Bearer ${pod.tokens.bot}` }),
      );
      // Agents act over REST; the control room's actions are for people.
      expect(await performOperation(s.app, agent as Identity, op, input)).toMatchObject({
        ok: false,
        code: "forbidden",
      });
      // What is any signed-in person's own (their password, their devices) has no stranger to refuse.
      if (op.guard === "person" || op.guard === "authenticated") return;
      // A person with no access to the pod: refused before the input's details matter.
      const stranger: Identity = {
        kind: "user",
        userId: "u-stranger",
        email: "stranger@example.com",
        name: "S",
        isAdmin: false,
      };
      expect(await performOperation(s.app, stranger, op, input)).toMatchObject({
        ok: false,
        code: "forbidden",
      });
    });
  }

  it("every REST operation is in the OpenAPI document, which is valid OpenAPI 3.1", async () => {
    const r = await api(s.url, "GET", "/api/v1/openapi.json", undefined, null);
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe("3.1.0");
    for (const op of rest) {
      const entry = r.body.paths[op.http!.path]?.[op.http!.method.toLowerCase()];
      expect(entry?.operationId, op.name).toBe(op.name);
      expect(Object.keys(entry.responses)).toContain(String(op.http!.status));
      const inPath = entry.parameters
        ?.filter((p: { in: string }) => p.in === "path")
        .map((p: { name: string }) => p.name);
      expect(inPath ?? []).toEqual(pathParams(op.http!.path));
      // A door of other bytes than JSON lists its own media types (none: an answer without a body).
      const { request, response } = op.http!.media ?? {};
      if (request) expect(Object.keys(entry.requestBody.content), op.name).toEqual(request);
      const success = entry.responses[String(op.http!.status)];
      if (response) expect(Object.keys(success.content ?? {}), op.name).toEqual(response);
      // A protocol's own refusal (OTLP's Status) in those types, else the error envelope in JSON.
      const refusal = op.http!.media?.error ? (response ?? ["application/json"]) : ["application/json"];
      expect(Object.keys(entry.responses["4XX"].content), op.name).toEqual(refusal);
      for (const also of op.http!.also ?? []) expect(entry.responses[String(also)], op.name).toEqual(success);
    }
    const validator = new Validator();
    const result = await validator.validate(r.body);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("REST and the action parse one schema: a bad page size or body field is a 400 naming the client's field", async () => {
    const hook = (
      await api(s.url, "POST", `/api/v1/pods/${pod.podId}/webhooks`, {
        url: "https://1.1.1.1/ops-bad",
        events: ["checkpoint"],
      })
    ).body;
    for (const limit of ["0", "101", "1.5", "ten", ""]) {
      const r = await api(
        s.url,
        "GET",
        `/api/v1/pods/${pod.podId}/webhooks/${hook.id}/deliveries?limit=${limit}`,
      );
      expect([r.status, r.body.error.code, r.body.error.message]).toEqual([
        400,
        "invalid_request",
        "invalid request: limit: a whole number from 1 to 100",
      ]);
    }
    const bad = await api(s.url, "POST", `/api/v1/pods/${pod.podId}/webhooks`, {
      url: "https://1.1.1.1/ops-bad",
      events: [],
    });
    expect([bad.status, bad.body.error.issues]).toEqual([
      400,
      [{ path: "events", message: "choose at least one event type or inbox change" }],
    ]);
    const notObject = await api(s.url, "PATCH", `/api/v1/pods/${pod.podId}/webhooks/${hook.id}`, [1]);
    expect(notObject.status).toBe(400);
    expect(notObject.body.error.message).toMatch(/^invalid request: \(root\): /);
  });

  it("the typed client's round trip: every answer is exactly what the operation's output schema says", async () => {
    const options = { base: s.url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } };
    const exact = (name: string, body: unknown) =>
      expect(operations.find((o) => o.name === name)!.output.parse(body)).toEqual(body);
    const created = await callApi(
      routes.createWebhookRoute,
      { podId: pod.podId, webhook: { url: "https://1.1.1.1/ops", events: ["inbox.opened", "inbox.opened"] } },
      options,
    );
    exact("createWebhook", created);
    expect(created.events).toEqual(["inbox.opened"]);
    const listed = await callApi(routes.listWebhooksRoute, { podId: pod.podId }, options);
    exact("listWebhooks", listed);
    expect(listed.webhooks.map((w) => w.id)).toContain(created.id);
    const updated = await callApi(
      routes.updateWebhookRoute,
      { podId: pod.podId, endpointId: created.id, update: { enabled: false } },
      options,
    );
    exact("updateWebhook", updated);
    expect(updated.enabled).toBe(false);
    const log = await callApi(
      routes.listWebhookDeliveriesRoute,
      { podId: pod.podId, endpointId: created.id, limit: 5 },
      options,
    );
    exact("listWebhookDeliveries", log);
    expect(log).toEqual({ deliveries: [], nextCursor: null });
    exact(
      "deleteWebhook",
      await callApi(routes.deleteWebhookRoute, { podId: pod.podId, endpointId: created.id }, options),
    );
    await expect(
      callApi(routes.deleteWebhookRoute, { podId: pod.podId, endpointId: created.id }, options),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("share links over the typed client: a body the operation can do without may be left out", async () => {
    const options = { base: s.url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } };
    const exact = (name: string, body: unknown) =>
      expect(operations.find((o) => o.name === name)!.output.parse(body)).toEqual(body);
    const bare = await fetch(`${s.url}/api/v1/pods/${pod.podId}/share-links`, {
      method: "POST",
      headers: options.headers,
    });
    expect(bare.status).toBe(201);
    const week = (await bare.json()) as { expiresAt: string; url: string; token: string };
    expect(Date.parse(week.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3_600_000);
    expect(week.url).toBe(`${s.app.config.publicUrl}/share/${week.token}`);
    const never = await callApi(
      routes.createShareLinkRoute,
      { podId: pod.podId, link: { expiresInHours: null, label: "wall screen" } },
      options,
    );
    exact("createShareLink", never);
    expect([never.expiresAt, never.label]).toEqual(["9999-12-31T23:59:59.999Z", "wall screen"]);
    const listed = await callApi(routes.listShareLinksRoute, { podId: pod.podId }, options);
    exact("listShareLinks", listed);
    expect(listed.links.map((l) => l.id)).toContain(never.id);
    const revoked = await callApi(
      routes.revokeShareLinkRoute,
      { podId: pod.podId, linkId: never.id },
      options,
    );
    exact("revokeShareLink", revoked);
    expect(revoked.revokedAt).not.toBeNull();
    expect(
      (await api(s.url, "GET", `/api/v1/pods/${pod.podId}`, undefined, { token: never.token })).status,
    ).toBe(401);
  });

  it("pods, the inbox and who-am-I over the typed client: every answer exactly its output schema's", async () => {
    const options = { base: s.url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } };
    const exact = (name: string, body: unknown) =>
      expect(operations.find((o) => o.name === name)!.output.parse(body)).toEqual(body);
    const made = await callApi(
      routes.createPodRoute,
      { name: "typed", mode: "collaboration", scope: "S", successCriteria: ["c"], cadenceMinutes: 15 },
      options,
    );
    exact("createPod", made);
    expect([made.name, made.eventCount]).toEqual(["typed", 1]);
    const one = await callApi(routes.getPodRoute, { podId: made.id }, options);
    exact("getPod", one);
    expect(one).toEqual(made);
    const listed = await callApi(routes.listPodsRoute, {}, options);
    exact("listPods", listed);
    expect(listed.pods.find((p) => p.id === made.id)).toMatchObject({ cadenceMinutes: 15, access: "admin" });
    exact("archivePod", await callApi(routes.archivePodRoute, { podId: made.id }, options));
    const archived = await callApi(routes.listPodsRoute, { archived: "1" }, options);
    expect(archived.pods.map((p) => p.id)).toEqual([made.id]);
    const back = await callApi(routes.unarchivePodRoute, { podId: made.id }, options);
    exact("unarchivePod", back);
    expect(back.archivedAt).toBeNull();
    exact("whoAmI", await callApi(routes.whoAmIRoute, {}, options));
    expect(
      await callApi(
        routes.whoAmIRoute,
        {},
        { ...options, headers: { authorization: `Bearer ${pod.tokens.bot}` } },
      ),
    ).toEqual({ kind: "agent", memberId: "bot", podId: pod.podId });
    // Items of several kinds, each with what backs it: an escalation about a task, a plain one.
    const bot = { token: pod.tokens.bot! };
    for (const event of [
      {
        type: "task.added",
        actor: "bot",
        body: { taskId: "t-ops", description: "d", dependsOn: [], metadata: {} },
      },
      {
        type: "escalation",
        actor: "bot",
        body: { escalationId: "e-ops", kind: "intent", question: "Q?", options: ["a", "b"], taskId: "t-ops" },
      },
      {
        type: "escalation",
        actor: "bot",
        body: { escalationId: "e-ops-2", kind: "risk_tolerance", question: "R?", options: [] },
      },
    ])
      expect((await api(s.url, "POST", `/api/v1/pods/${pod.podId}/events`, event, bot)).status).toBe(201);
    const inbox = await callApi(routes.listInboxRoute, { podId: pod.podId }, options);
    exact("listInbox", inbox);
    expect(inbox.items.map((i) => [i.kind, i.context?.kind])).toEqual([
      ["escalation", "escalation"],
      ["escalation", "escalation"],
    ]);
    expect((await callApi(routes.listInboxRoute, {}, options)).items.length).toBeGreaterThanOrEqual(2);
  });

  it("signals and the protocol's read models over the typed client: each answer exactly its output schema's", async () => {
    const options = { base: s.url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } };
    const exact = (name: string, body: unknown) =>
      expect(operations.find((o) => o.name === name)!.output.parse(body)).toEqual(body);
    const from = new Date(Date.now() - 60_000).toISOString();
    // Figures of every kind the answers hold: usage by model, tool calls, a run, a day, a budget.
    const bot = { token: pod.tokens.bot! };
    const events = [
      {
        type: "usage.reported",
        actor: "bot",
        body: { model: "m", inputTokens: 10, outputTokens: 5, costUsd: 0.5 },
      },
      { type: "tool.call", actor: "bot", body: { toolUseId: "toolu_ops", tool: "Bash", phase: "started" } },
    ];
    const budget = { podId: pod.podId, budgetId: "b-ops", metric: "cost_usd", limit: 0.25 } as const;
    exact("setBudget", await callApi(routes.setBudgetRoute, budget, options));
    const appended = await api(s.url, "POST", `/api/v1/pods/${pod.podId}/events`, { events }, bot);
    expect(appended.status, JSON.stringify(appended.body)).toBe(201);
    const now = await callApi(routes.podSignalsRoute, { podId: pod.podId }, options);
    exact("podSignals", now);
    expect(now.agents.find((a) => a.agentId === "bot")?.usage.byModel.m?.costUsd).toBe(0.5);
    expect(now.budgets.map((b) => [b.budgetId, b.used])).toEqual([["b-ops", 0.5]]);
    exact("podSignals", await callApi(routes.podSignalsRoute, { podId: pod.podId, asOf: "2" }, options));
    const to = new Date().toISOString();
    const windowed = await callApi(routes.podSignalsRoute, { podId: pod.podId, from, to }, options);
    exact("podSignals", windowed);
    expect(windowed.window).toEqual({ from, to });
    const across = await callApi(routes.signalsExportRoute, { pod: [pod.podId, other.podId] }, options);
    exact("signalsExport", across);
    expect(across.rows.map((r) => [r.podId, r.agentId])).toContainEqual([pod.podId, "bot"]);
    exact("signalsExport", await callApi(routes.signalsExportRoute, { agent: "bot", from, to }, options));
    const record = await callApi(routes.agentRecordRoute, { pod: pod.podId, agent: "bot" }, options);
    exact("agentRecord", record);
    expect(record.payload.events.map((e) => e.type).slice(-2)).toEqual(["usage.reported", "tool.call"]);
    // A pod's state with something in most of its lists: one valid event of every type, in order (its
    // sessions and decisions stay empty: those samples are refused from these callers).
    const team = await agentPod(s.url, "ops-state", {
      "impl-1": "implementer",
      "rev-1": "reviewer",
      "chair-1": "chair",
    });
    for (const [type, sample] of Object.entries(SAMPLE_BODIES))
      if (type !== "pod.closed")
        await api(
          s.url,
          "POST",
          `/api/v1/pods/${team.podId}/events`,
          { type, ...structuredClone(sample) },
          {
            token: team.tokens[sample.actor] ?? TEST_ADMIN_TOKEN,
          },
        );
    const state = await callApi(routes.readPodStateRoute, { podId: team.podId }, options);
    exact("readPodState", state);
    const lists = [
      "members",
      "board",
      "inbox",
      "escalations",
      "evidence",
      "runs",
      "jobs",
      "workcells",
      "usage",
      "handoffs",
      "roleHistory",
      "budgets",
    ] as const;
    expect(lists.filter((k) => state[k].length === 0)).toEqual([]);
    exact(
      "readPodState",
      await callApi(routes.readPodStateRoute, { podId: team.podId, atSeq: "5" }, options),
    );
    const schemas = await callApi(routes.eventSchemasRoute, {}, options);
    exact("eventSchemas", schemas);
    expect(Object.keys(schemas.types)).toContain("usage.reported");
  });
});

/** Names the control room's components import from the server actions. */
function namesTheBrowserImports(dir = "components"): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return namesTheBrowserImports(path.join(dir, e.name));
    if (!/\.tsx?$/.test(e.name) || /\.test\.ts$/.test(e.name)) return [];
    const source = readFileSync(path.join(ROOT, dir, e.name), "utf8");
    return [
      ...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*["'][^"']*server\/web\/server-actions["']/g),
    ].flatMap((m) =>
      m[1]!
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean),
    );
  });
}

describe("server actions from the operation tables", () => {
  it("each operation the browser calls is a server action made from it, and only those are marked", async () => {
    const { operationOfAction } = await import("../web/operation-action");
    const actions: Record<string, unknown> = await import("../web/server-actions");
    const made = new Map(
      Object.entries(actions).flatMap(([name, fn]) =>
        operationOfAction(fn) ? [[name, operationOfAction(fn)!] as const] : [],
      ),
    );
    const used = new Set(namesTheBrowserImports());
    for (const op of operations.filter((o) => o.action)) {
      expect(made.get(op.name), `server action ${op.name}`).toBe(op);
      expect(used.has(op.name), `${op.name} is marked as the browser's, but no component calls it`).toBe(
        true,
      );
    }
    for (const [name, op] of made)
      expect(op.action, `${name} is a server action, so its operation says action: true`).toBe(true);
  });
});
