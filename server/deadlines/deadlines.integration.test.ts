// Deadlines and the cadence watchdog against the real server: a deadline that passes
// while the server is down is applied exactly once after it starts again (also with a second
// scheduler racing it, as a second node would); staleness appears and clears on a checkpoint;
// no client may speak as the server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../start-server";
import { agentPod, api, startServerOn, TEST_ADMIN_TOKEN } from "../testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";
import { DeadlineScheduler } from "./deadline-scheduler";
import { readInbox } from "../pods/read-inbox";
import { performOperation } from "../web/perform-operation";
import { inboxOperations } from "../pods/inbox-operations";
import type { Identity } from "../domain/access/policy";
import { eventually, sleep } from "../testing/eventually";
import { TEST_WRITER } from "../testing/test-writer";

describe.each(testProviders())("deadlines and the watchdog on %s", (provider) => {
  let db: TestDatabase;
  let server: RunningServer | null = null;
  const start = async (env: Record<string, string> = {}) => (server = await startServerOn(db, env));
  const stop = async () => (await server?.close(), (server = null));
  beforeAll(async () => void (db = await createTestDatabase(provider)));
  afterAll(async () => (await stop(), await db?.drop()));

  const events = async (base: string, podId: string, type: string) =>
    (await api(base, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events.filter(
      (e: { type: string }) => e.type === type,
    );

  it("no client speaks as podwatch; no member is named so", async () => {
    const { url } = await start();
    const { podId, tokens } = await agentPod(url, "voices", { impl: "implementer" });
    const agent = { token: tokens["impl"]! };
    const checkpoint = { type: "checkpoint", body: { completed: ["x"], next: [], blocked: [] } };
    const asAgent = await api(
      url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      { ...checkpoint, actor: "podwatch" },
      agent,
    );
    expect(asAgent.status).toBe(403); // an agent token speaks only as its member anyway
    const asAdmin = await api(url, "POST", `/api/v1/pods/${podId}/events`, {
      ...checkpoint,
      actor: "podwatch",
    });
    expect([asAdmin.status, asAdmin.body.error.code]).toEqual([403, "system_actor"]);
    const systemType = await api(url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "notice.posted",
      actor: "ops",
      body: { noticeId: "n", title: "t", audience: "admins" },
    });
    expect([systemType.status, systemType.body.error.code]).toEqual([403, "system_actor"]);
    const seedAsPodwatch = await fetch(`${url}/api/v1/pods/${podId}/plan`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
        "content-type": "application/json",
        "x-podwatch-actor": "podwatch",
      },
      body: JSON.stringify({ tasks: [{ task_id: "t1", description: "d", status: "pending" }] }),
    });
    expect(seedAsPodwatch.status).toBe(403);
    const member = await api(url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: "podwatch",
      kind: "agent",
      displayName: "Impostor",
      roles: ["implementer"],
    });
    expect([member.status, member.body.error.code]).toEqual([422, "reserved_member"]);
    await stop();
  });

  it("an agent cannot have podwatch decide its own work: no past or too-near deadline, no approve/accept default", async () => {
    const { url } = await start(); // the real minimum: a minute
    const { podId, tokens } = await agentPod(url, "own-default", { impl: "implementer", chair: "chair" });
    const post = (actor: string, type: string, body: object) =>
      api(url, "POST", `/api/v1/pods/${podId}/events`, { type, actor, body }, { token: tokens[actor]! });
    const past = { at: "2000-01-01T00:00:00Z", then: "answer" };
    const ask = await post("impl", "escalation", {
      escalationId: "e1",
      kind: "intent",
      question: "Delete prod?",
      options: ["Yes", "No"],
      deadline: { ...past, answer: "Yes" },
    });
    expect([ask.status, ask.body.error.code]).toEqual([422, "deadline_too_soon"]);
    const soon = await post("impl", "escalation", {
      escalationId: "e1",
      kind: "intent",
      question: "Delete prod?",
      options: ["Yes", "No"],
      deadline: { at: new Date(Date.now() + 20_000).toISOString(), then: "answer", answer: "Yes" },
    });
    expect([soon.status, soon.body.error.code]).toEqual([422, "deadline_too_soon"]);
    expect(
      (
        await post("chair", "job.posted", {
          jobId: "j1",
          scope: "Fix",
          acceptanceTests: ["works"],
          settlement: { amount: 5, currency: "EUR", terms: "t" },
        })
      ).status,
    ).toBe(201);
    expect((await post("chair", "job.funded", { jobId: "j1" })).status).toBe(201);
    const accept = await post("impl", "job.delivered", {
      jobId: "j1",
      deadline: { inMinutes: 5, then: "answer", answer: "accept" },
    });
    expect([accept.status, accept.body.error.code]).toEqual([409, "default_needs_decider"]);
    expect((await post("impl", "task.added", { taskId: "a", description: "a" })).status).toBe(201);
    expect((await post("impl", "task.updated", { taskId: "a", status: "in_progress" })).status).toBe(201);
    const approve = await post("impl", "task.review_requested", {
      taskId: "a",
      deadline: { inMinutes: 5, then: "answer", answer: "approve" },
    });
    expect([approve.status, approve.body.error.code]).toEqual([409, "default_needs_decider"]);
    expect(
      (await post("impl", "job.delivered", { jobId: "j1", deadline: { inMinutes: 5, then: "reject" } }))
        .status,
    ).toBe(201);
    const state = (await api(url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(state.jobs[0]).toMatchObject({ status: "delivered", escrow: "funded" });
    expect(state.decisions).toEqual([]);
    expect(await events(url, podId, "deadline.passed")).toEqual([]);
    await stop();
  });

  it("a deadline that passes while the server is down is applied once after it starts", async () => {
    // Test only: deadlines may be seconds ahead (the rule's minimum is a minute).
    const fast = { PODWATCH_DEADLINE_MIN_MS: "100" };
    const { url } = await start(fast);
    const { podId, tokens } = await agentPod(url, "deadline", { impl: "implementer" });
    const at = new Date(Date.now() + 2500).toISOString();
    const asked = await api(
      url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      {
        type: "escalation",
        actor: "impl",
        body: {
          escalationId: "e1",
          kind: "intent",
          question: "Ship?",
          options: ["Yes", "No"],
          deadline: { at, then: "answer", answer: "Yes" },
        },
      },
      { token: tokens["impl"]! },
    );
    expect(asked.status).toBe(201);
    const state = (await api(url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(state.inbox[0].due).toEqual({ at, then: "answer", answer: "Yes" });
    await stop();
    await sleep(Math.max(0, Date.parse(at) - Date.now()) + 300); // the deadline passes while nobody runs

    const restarted = await start(fast);
    // A second scheduler on the same database, as a second node would run, races the first.
    const rival = new DeadlineScheduler(restarted.app);
    rival.start();
    const passed = await eventually(
      () => events(restarted.url, podId, "deadline.passed"),
      (l) => l.length > 0,
      "deadline.passed",
    );
    await rival.stop();
    expect(passed).toHaveLength(1);
    expect(passed[0]).toMatchObject({
      actor: "podwatch",
      body: {
        itemId: "escalation:e1",
        subject: { kind: "escalation", id: "e1" },
        outcome: "answered",
        answer: "Yes",
      },
    });
    expect(Date.parse(passed[0].receivedAt)).toBeGreaterThanOrEqual(Date.parse(at));
    const after = (await api(restarted.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(after.inbox).toEqual([]);
    expect(after.escalations[0].answer).toMatchObject({ answer: "Yes", by: "podwatch" });
    await stop();

    const again = await start(fast); // and a further restart appends nothing more
    await sleep(800);
    expect(await events(again.url, podId, "deadline.passed")).toHaveLength(1);
    await stop();
  });

  it("one pod the scheduler cannot read does not stop its scan of the others", async () => {
    const fast = { PODWATCH_DEADLINE_MIN_MS: "100" };
    const first = await start(fast);
    const { podId, tokens } = await agentPod(first.url, "after-a-broken-one", { impl: "implementer" });
    const at = new Date(Date.now() + 1500).toISOString();
    const asked = await api(
      first.url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      {
        type: "escalation",
        actor: "impl",
        body: { escalationId: "e1", kind: "intent", question: "Ship?", deadline: { at, then: "remind" } },
      },
      { token: tokens["impl"]! },
    );
    expect(asked.status).toBe(201);
    // A pod whose stored state cannot be read, first in the scan whether pods come by id or as inserted.
    const broken = "00000000-0000-4000-8000-000000000000";
    const prisma = first.app.store.prisma;
    await prisma.pod.create({
      data: {
        id: broken,
        name: "broken",
        mode: "collaboration",
        createdAt: new Date().toISOString(),
        headSeq: 1,
        headHash: "0".repeat(64),
      },
    });
    await prisma.podState.create({ data: { podId: broken, seq: 1, state: "{not json" } });
    await stop();
    await sleep(Math.max(0, Date.parse(at) - Date.now()) + 100);
    try {
      const { url } = await start(fast); // its first pass reads every pod
      const passed = await eventually(
        () => events(url, podId, "deadline.passed"),
        (l) => l.length > 0,
        "deadline.passed",
        8_000,
      );
      expect(passed[0]).toMatchObject({
        actor: "podwatch",
        body: { itemId: "escalation:e1", outcome: "reminded" },
      });
    } finally {
      await stop();
      const server = await start();
      await server.app.store.prisma.podState.delete({ where: { podId: broken } });
      await server.app.store.prisma.pod.delete({ where: { id: broken } });
      await stop();
    }
  });

  it("the scheduler reads a closed pod once, not on every scan", async () => {
    const { url, app } = await start();
    const open = await agentPod(url, "still-open", { impl: "implementer" });
    const done = await agentPod(url, "closed", { impl: "implementer" });
    expect(
      (
        await api(url, "POST", `/api/v1/pods/${done.podId}/events`, {
          type: "pod.closed",
          actor: "ops",
          body: {},
        })
      ).status,
    ).toBe(201);
    const reads = new Map<string, number>();
    // The real store, counting the scheduler's reads.
    const store = Object.create(app.store, {
      readState: {
        value: (podId: string) => (reads.set(podId, (reads.get(podId) ?? 0) + 1), app.store.readState(podId)),
      },
    });
    const scheduler = new DeadlineScheduler({ ...app, store });
    for (let scan = 0; scan < 2; scan++) {
      scheduler.start(); // each start scans every pod
      await eventually(
        async () => [reads.get(open.podId) ?? 0, reads.get(done.podId) ?? 0],
        ([o, d]) => o! > scan && d! >= 1,
        "a scan of both pods",
      );
      await scheduler.stop();
    }
    expect(reads.get(open.podId)).toBe(2);
    expect(reads.get(done.podId)).toBe(1);
    await stop();
  });

  it("the watchdog flags a watched agent past its cadence, once per episode; its checkpoint clears it", async () => {
    // Test only: a cadence minute of 200 ms, so the pod's 5 minutes pass in a second.
    const { url } = await start({ PODWATCH_WATCHDOG_MINUTE_MS: "200" });
    const { podId, tokens } = await agentPod(url, "cadence", { impl: "implementer", chair: "chair" });
    const post = (actor: string, type: string, body: object) =>
      api(url, "POST", `/api/v1/pods/${podId}/events`, { type, actor, body }, { token: tokens[actor]! });
    expect(
      (await post("chair", "pod.scope_agreed", { scope: "s", successCriteria: ["c"], cadenceMinutes: 5 }))
        .status,
    ).toBe(201);
    expect((await post("chair", "pod.started", {})).status).toBe(201);
    expect((await post("impl", "task.added", { taskId: "a", description: "a" })).status).toBe(201);
    expect((await post("impl", "task.updated", { taskId: "a", status: "in_progress" })).status).toBe(201);
    const stale = await eventually(
      () => events(url, podId, "agent.stale"),
      (l) => l.length > 0,
      "agent.stale",
      10_000,
    );
    expect(stale[0]).toMatchObject({ actor: "podwatch", body: { agentId: "impl", cadenceMinutes: 5 } });
    let state = (await api(url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(state.inbox.map((i: { id: string; kind: string }) => [i.id, i.kind])).toEqual([
      ["stale:impl", "stale"],
    ]);
    await sleep(1200); // still one episode while it stays silent
    expect(await events(url, podId, "agent.stale")).toHaveLength(1);
    expect((await post("impl", "checkpoint", { completed: ["back"], next: [], blocked: [] })).status).toBe(
      201,
    );
    state = (await api(url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(state.inbox).toEqual([]);
    expect(state.cadence).toMatchObject({ late: 1, staleEpisodes: 1, staleNow: [] });
    await stop();
  });

  it("a notice reaches only the pod's admins, and an admin dismisses it (server action or API)", async () => {
    const { url, app } = await start();
    const { podId } = await agentPod(url, "notices", { impl: "implementer" });
    const person = (email: string): Identity => ({
      kind: "user",
      userId: email,
      email,
      name: email,
      isAdmin: false,
    });
    for (const [email, access] of [
      ["vic@example.com", "viewer"],
      ["amy@example.com", "approver"],
      ["ada@example.com", "admin"],
    ]) {
      expect(
        (
          await api(url, "POST", `/api/v1/pods/${podId}/members`, {
            memberId: email,
            kind: "human",
            displayName: email,
            roles: [access],
          })
        ).status,
      ).toBe(201);
    }
    // Server-side code speaks as podwatch through the one write path.
    await app.append(
      podId,
      [
        {
          type: "notice.posted",
          actor: "podwatch",
          body: {
            noticeId: "n1",
            title: "Endpoint disabled",
            text: "It failed for a day",
            audience: "admins",
          },
        },
      ],
      TEST_WRITER,
    );
    await app.append(
      podId,
      [
        {
          type: "notice.posted",
          actor: "podwatch",
          body: { noticeId: "n2", title: "Another", audience: "admins" },
        },
      ],
      TEST_WRITER,
    );
    const ids = async (email: string) => (await readInbox(app.store, person(email))).map((i) => i.id);
    expect(await ids("vic@example.com")).toEqual([]);
    expect(await ids("amy@example.com")).toEqual([]);
    expect(await ids("ada@example.com")).toEqual(["notice:n1", "notice:n2"]);
    const refused = await performOperation(app, person("amy@example.com"), inboxOperations.dismissNotice, {
      podId,
      noticeId: "n1",
    });
    expect(refused).toMatchObject({ ok: false });
    expect(
      await performOperation(app, person("ada@example.com"), inboxOperations.dismissNotice, {
        podId,
        noticeId: "n1",
      }),
    ).toMatchObject({ ok: true });
    const byApi = await api(url, "POST", `/api/v1/pods/${podId}/notices/n2/dismiss`);
    expect(byApi.status).toBe(201);
    expect((await api(url, "POST", `/api/v1/pods/${podId}/notices/n2/dismiss`)).body.error.code).toBe(
      "unknown_notice",
    );
    expect(await ids("ada@example.com")).toEqual([]);
    const tape = (
      await api(url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)
    ).body.events.filter((e: { type: string }) => e.type === "notice.dismissed");
    expect(tape.map((e: { actor: string }) => e.actor)).toEqual([
      "ada@example.com",
      "admin:PODWATCH_ADMIN_TOKEN",
    ]);
    await stop();
  });
});
