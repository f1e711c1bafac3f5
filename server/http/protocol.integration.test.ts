import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { replay } from "../domain/state/apply-event";
import { emptyPodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import { EVENT_TYPES } from "../wire/vocabulary";
import { callApi } from "../../components/shared/api-client";
import {
  readEventsRoute,
  readPlanRoute,
  signingKeyRoute,
  verifyTapeRoute,
} from "../../components/shared/api-routes";
import { protocolOperations } from "../pods/protocol-operations";
import { tapeOperations } from "../tape/tape-operations";
import { signalsOperations } from "../signals/signals-operations";

const seedText = (name: string) =>
  readFileSync(join(import.meta.dirname, "..", "testing", "seed-examples", name), "utf8");
const post = async (s: TestServer, path: string, body: string | object, actor?: string) => {
  const res = await fetch(`${s.url}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
      ...(actor ? { "x-podwatch-actor": actor } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const ev = (type: string, actor: string, body: object, extra: object = {}) => ({
  id: randomUUID(),
  type,
  actor,
  body,
  ...extra,
});

describe.each(testProviders())("the pod protocol over the API on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  const events = (list: object[]) => post(s, `/api/v1/pods/${podId}/events`, { events: list });
  const length = async () => (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount as number;

  beforeAll(async () => {
    s = await startTestServer(provider);
    podId = (await api(s.url, "POST", "/api/v1/pods", { name: "protocol", mode: "collaboration" })).body.id;
    const setup = await events([
      ev("member.joined", "orchestrator-1", { memberId: "coder", kind: "agent", displayName: "Coder" }),
      ev("member.joined", "orchestrator-1", { memberId: "tester", kind: "agent", displayName: "Tester" }),
      ev("member.joined", "orchestrator-1", {
        memberId: "ana@example.com",
        kind: "human",
        displayName: "Ana",
        access: "approver",
      }),
      ev("role.assigned", "orchestrator-1", { memberId: "coder", role: "implementer" }),
      ev("role.assigned", "orchestrator-1", { memberId: "tester", role: "reviewer" }),
    ]);
    expect(setup.status).toBe(201);
  });
  afterAll(() => s.stop());

  it("accepts a plan.json as written and reads it back in the same format", async () => {
    const r = await post(s, `/api/v1/pods/${podId}/plan`, seedText("plan.json"), "chair-1");
    expect(r.status).toBe(201);
    const plan = (await api(s.url, "GET", `/api/v1/pods/${podId}/plan`)).body;
    expect(plan.tasks.map((t: any) => [t.task_id, t.status])).toEqual([
      ["task_001", "done"],
      ["task_002", "in_progress"],
      ["task_003", "pending"],
    ]);
    expect(plan.tasks[0].metadata).toEqual({ completed_at: "2023-10-27T10:00:00Z" });
  });

  it("accepts a handoff TaskStep as written: the destination must be a member", async () => {
    const step = JSON.parse(seedText("handoff-step.json"));
    const r = await events([ev("handoff", "coder", step)]);
    expect(r.status).toBe(201);
    const state = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(state.activeAgent).toBe("tester");
    expect(state.handoffs.at(-1)).toMatchObject({
      from: "coder",
      to: "tester",
      reason: "Code implementation is complete, ready for testing.",
    });
    const before = await length();
    const bad = await events([ev("handoff", "coder", { to: "deployer", reason: "ship it" })]);
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("unknown_member");
    expect(await length()).toBe(before);
  });

  it("accepts a manifest and a complete proof.json as written", async () => {
    const opened = await post(s, `/api/v1/pods/${podId}/workcells`, seedText("manifest.json"));
    expect(opened.status).toBe(201);
    expect(opened.body.workcellId).toBe("wc-42-20250115T143022Z");
    const proof = await post(
      s,
      `/api/v1/pods/${podId}/workcells/wc-42-20250115T143022Z/proof`,
      seedText("proof.json"),
    );
    expect(proof.status).toBe(201);
    const wc = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.workcells[0];
    expect(wc.proof).toMatchObject({
      status: "success",
      allPassed: true,
      failingGates: [],
      risk: "medium",
      confidence: 0.92,
      diffLines: 139,
    });
  });

  it("validates proof fields: an inconsistent proof is a 422 and nothing is stored", async () => {
    const manifest = JSON.parse(seedText("manifest.json"));
    manifest.workcell_id = "wc-43-x";
    manifest.issue.id = "43";
    expect((await post(s, `/api/v1/pods/${podId}/workcells`, manifest)).status).toBe(201);
    const proof = JSON.parse(seedText("proof.json"));
    Object.assign(proof, { workcell_id: "wc-43-x", issue_id: "43" });
    proof.verification.gates.test.passed = false;
    const before = await length();
    const r = await post(s, `/api/v1/pods/${podId}/workcells/wc-43-x/proof`, proof);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe("proof_inconsistent");
    const missingField = await post(s, `/api/v1/pods/${podId}/workcells/wc-43-x/proof`, {
      ...proof,
      patch: undefined,
    });
    expect(missingField.status).toBe(400);
    expect(missingField.body.error.issues[0].path).toBe("patch");
    expect(await length()).toBe(before);
  });

  it("runs the task loop: review by someone else, then a human decides", async () => {
    const bundleId = `ev-${randomUUID().slice(0, 6)}`;
    const hash = "a".repeat(64);
    expect(
      (
        await events([
          ev("evidence.bundle", "coder", {
            bundleId,
            commands: [{ command: "npm test", exit_code: 0, duration_ms: 1200 }],
            artifacts: [{ path: "report.json", sha256: hash, size: 10 }],
            env: { commit: "abc123", tools: { node: "20" } },
            manifestHash: hash,
          }),
          ev("task.review_requested", "coder", { taskId: "task_002", evidenceIds: [bundleId] }),
        ])
      ).status,
    ).toBe(201);
    const selfReview = await events([ev("review", "coder", { taskId: "task_002", verdict: "approve" })]);
    // task_002 came in_progress from the plan without an implementer; the requester became it.
    expect(selfReview.body.error.code).toBe("reviewer_is_implementer");
    expect(
      (
        await events([
          ev("review", "tester", { taskId: "task_002", verdict: "approve", evidenceIds: [bundleId] }),
        ])
      ).status,
    ).toBe(201);
    const agentDecides = await events([
      ev("decision", "tester", {
        subject: { kind: "task", id: "task_002" },
        verdict: "approve",
        rationale: "lgtm",
      }),
    ]);
    expect(agentDecides.status).toBe(409);
    expect(agentDecides.body.error.code).toBe("decision_authority");
    const inbox = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.inbox;
    expect(inbox.map((i: any) => i.id)).toContain("decision:task:task_002");
    expect(
      (
        await events([
          ev("decision", "ana@example.com", {
            subject: { kind: "task", id: "task_002" },
            verdict: "approve",
            tieBreaker: "text_spec",
            rationale: "tests pass",
            evidenceIds: [bundleId],
          }),
        ])
      ).status,
    ).toBe(201);
    const state = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(state.board.find((t: any) => t.taskId === "task_002").status).toBe("done");
    expect(state.inbox.map((i: any) => i.id)).not.toContain("decision:task:task_002");
    expect(state.evidence.find((e: any) => e.bundleId === bundleId).links).toMatchObject({
      tasks: ["task_002"],
    });
  });

  it("time travel: the state as of an earlier seq", async () => {
    const now = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    const early = (await api(s.url, "GET", `/api/v1/pods/${podId}/state?atSeq=5`)).body;
    expect(early.seq).toBe(5);
    expect(early.board).toEqual([]);
    expect(early.members.map((m: any) => m.memberId)).toEqual(["coder", "tester", "ana@example.com"]);
    expect(now.board.length).toBe(3);
  });

  it("the stored projection is exactly the replay of the stored tape", async () => {
    const tape = (await api(s.url, "GET", `/api/v1/pods/${podId}/events?limit=1000`)).body.events;
    const rows = tape.map((e: any) => ({
      ...e,
      body: JSON.stringify(e.body),
      meta: e.meta ? JSON.stringify(e.meta) : null,
    }));
    const stored = await s.app.store.readStoredState(podId);
    expect(JSON.parse(stored!.state)).toEqual(replay(rows.map(toAppliedEvent), emptyPodState()));
  });

  it("serves the JSON Schema of every event type", async () => {
    const r = await api(s.url, "GET", "/api/v1/schema");
    expect(Object.keys(r.body.types)).toEqual([...EVENT_TYPES]);
    expect(r.body.types["budget.set"].properties.body.properties.metric.enum).toEqual([
      "tokens",
      "cost_usd",
      "wall_minutes",
      "tool_calls",
    ]);
    expect(r.body.types["decision"].properties.body.properties.verdict.enum).toEqual([
      "approve",
      "reject",
      "accept",
      "block",
    ]);
  });

  it("the typed client's round trip: the plan, a page of events, the chain and the key are exactly their schemas", async () => {
    const options = { base: s.url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } };
    const exact = (schema: { parse: (v: unknown) => unknown }, body: unknown) =>
      expect(schema.parse(body)).toEqual(body);
    const plan = await callApi(readPlanRoute, { podId }, options);
    exact(protocolOperations.readPlan.output, plan);
    expect(plan.tasks.length).toBeGreaterThan(0);
    const page = await callApi(readEventsRoute, { podId, after: 0, limit: 3 }, options);
    exact(tapeOperations.readEvents.output, page);
    expect(page.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    const search = await callApi(readEventsRoute, { podId, type: "member.joined", limit: 1 }, options);
    exact(tapeOperations.readEvents.output, search);
    expect("nextBefore" in search && search.nextBefore).toBe(search.events[0]!.seq);
    const chain = await callApi(verifyTapeRoute, { podId, full: "1" }, options);
    exact(tapeOperations.verifyTape.output, chain);
    expect(chain).toEqual({ ok: true, checked: await length() });
    const key = await callApi(signingKeyRoute, {}, { base: s.url });
    exact(signalsOperations.signingKey.output, key);
    expect(key.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
  });
});
