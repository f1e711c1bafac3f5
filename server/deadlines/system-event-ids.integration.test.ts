// The server's own events cannot be pre-empted: an agent that appends any
// event under the id a plain hash of public facts would give the server's budget.exceeded,
// deadline.passed or agent.stale does not stop the server's report — the scheduler appends under
// an id keyed with the installation's secret, which every node on the database shares.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startServerOn, startTestServer, type TestServer } from "../testing/test-server";
import { createTestDatabase, testProviders } from "../testing/test-databases";
import { eventually } from "../testing/eventually";
import { uuidFromKey } from "../wire/hash";
import { budgetEventId } from "./budgets-due";
import { installationEventIds } from "./system-event-id";
import { timedWork } from "./timed-work";

type Ev = { id: string; seq: number; type: string; actor: string; body: Record<string, any> };

describe.each(testProviders())("system event ids on %s", (provider) => {
  let s: TestServer;
  // Test only: deadlines may be 100 ms ahead, and a cadence minute is 400 ms.
  beforeAll(
    async () =>
      void (s = await startTestServer(provider, {
        PODWATCH_DEADLINE_MIN_MS: "100",
        PODWATCH_WATCHDOG_MINUTE_MS: "400",
      })),
  );
  afterAll(() => s?.stop());

  const ofType = async (podId: string, type: string): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events.filter(
      (e: Ev) => e.type === type,
    );
  async function pod(name: string, cadenceMinutes = 30) {
    const { podId, tokens } = await agentPod(s.url, name, { impl: "implementer", chair: "chair" });
    const as =
      (actor: string) =>
      async (type: string, body: object, extra: object = {}) => {
        const r = await api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/events`,
          { type, actor, body, ...extra },
          { token: tokens[actor]! },
        );
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body.events[0] as Ev;
      };
    await as("chair")("pod.scope_agreed", { scope: "s", successCriteria: ["c"], cadenceMinutes });
    await as("chair")("pod.started", {});
    return { podId, impl: as("impl") };
  }
  /** The agent takes `id` first, with an event of its own. */
  const squat = (p: Awaited<ReturnType<typeof pod>>, id: string) =>
    p.impl("note", { kind: "STATUS", text: "mine" }, { id });

  it("budget.exceeded: an event under the budget round's plain-hash id does not keep the crossing from being reported", async () => {
    const p = await pod("squat-budget");
    const set = await api(s.url, "PUT", `/api/v1/pods/${p.podId}/budgets/b-tok`, {
      agentId: "impl",
      metric: "tokens",
      limit: 100,
    });
    expect(set.status).toBe(200);
    const plain = budgetEventId(p.podId, { budgetId: "b-tok", seq: set.body.event.seq });
    expect(plain).toBe(uuidFromKey(`budget:${p.podId}:b-tok:${set.body.event.seq}`));
    await squat(p, plain);
    await p.impl("usage.reported", { model: "m", inputTokens: 150 });
    const [crossed] = await eventually(
      () => ofType(p.podId, "budget.exceeded"),
      (l) => l.length > 0,
      "budget.exceeded",
    );
    expect(crossed).toMatchObject({ actor: "podwatch", body: { budget: "b-tok", used: 150 } });
    expect(crossed!.id).not.toBe(plain);
    expect(
      (await api(s.url, "GET", `/api/v1/pods/${p.podId}/state`)).body.inbox.map((i: { id: string }) => i.id),
    ).toContain("budget:b-tok");
  });

  it("deadline.passed and agent.stale: squatted plain-hash ids do not keep the deadline from passing or the agent from being flagged", async () => {
    const p = await pod("squat-deadline", 5); // stale after 5 × 400 ms
    await p.impl("task.added", { taskId: "a", description: "a" });
    await p.impl("task.updated", { taskId: "a", status: "in_progress" });
    await p.impl("escalation", {
      escalationId: "e1",
      kind: "intent",
      question: "?",
      deadline: { at: new Date(Date.now() + 1_000).toISOString(), then: "remind" },
    });
    // The ids as a plain hash gave them: timedWork's names, read as an agent could work them out.
    const state = (await s.app.store.readState(p.podId))!;
    const names = timedWork(p.podId, state, Date.now() + 86_400_000, 400).due.map((d) => d.event);
    expect(names.map((e) => e.type).sort()).toEqual(["agent.stale", "deadline.passed"]);
    for (const e of names) await squat(p, e.id!);
    const [passed] = await eventually(
      () => ofType(p.podId, "deadline.passed"),
      (l) => l.length > 0,
      "deadline.passed",
      10_000,
    );
    expect(passed).toMatchObject({
      actor: "podwatch",
      body: { itemId: "escalation:e1", outcome: "reminded" },
    });
    const [stale] = await eventually(
      () => ofType(p.podId, "agent.stale"),
      (l) => l.length > 0,
      "agent.stale",
      10_000,
    );
    expect(stale).toMatchObject({ actor: "podwatch", body: { agentId: "impl", cadenceMinutes: 5 } });
    expect(names.map((e) => e.id)).not.toContain(passed!.id);
    expect(names.map((e) => e.id)).not.toContain(stale!.id);
  });

  it("derives the same ids on every node of one database and after a restart; another installation derives others", async () => {
    const name = uuidFromKey(`budget:p:b:${randomUUID()}`);
    const here = (await installationEventIds(s.app.store))(name);
    expect(here).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(here).not.toBe(name);
    const db = await createTestDatabase(provider);
    try {
      const [a, b] = await Promise.all([startServerOn(db), startServerOn(db)]);
      const [idA, idB] = await Promise.all(
        [a, b].map(async (n) => (await installationEventIds(n.app.store))(name)),
      );
      expect(idB).toBe(idA);
      expect(idA).not.toBe(here);
      await Promise.all([a.close(), b.close()]);
      const again = await startServerOn(db);
      expect((await installationEventIds(again.app.store))(name)).toBe(idA);
      await again.close();
    } finally {
      await db.drop();
    }
  });
});
