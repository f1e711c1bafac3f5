import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { rawSql, testProviders } from "../testing/test-databases";

const cp = (text: string, id: string = randomUUID()) => ({
  id,
  type: "checkpoint",
  actor: "impl-1",
  role: "implementer",
  body: { completed: [text], next: [], blocked: [] },
});

describe.each(testProviders())("agent API v1 on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  beforeAll(async () => {
    s = await startTestServer(provider);
    const created = await api(s.url, "POST", "/api/v1/pods", {
      name: "spine",
      mode: "collaboration",
      scope: "tests",
    });
    expect(created.status).toBe(201);
    podId = created.body.id;
  });
  afterAll(() => s.stop());

  const tapeLength = async (id = podId) =>
    (await api(s.url, "GET", `/api/v1/pods/${id}`)).body.eventCount as number;

  it("creates, lists and reads pods", async () => {
    const list = await api(s.url, "GET", "/api/v1/pods");
    expect(list.body.pods.map((p: { id: string }) => p.id)).toContain(podId);
    const one = await api(s.url, "GET", `/api/v1/pods/${podId}`);
    expect(one.body).toMatchObject({ id: podId, name: "spine", mode: "collaboration", scope: "tests" });
  });

  it("rejects a pod without a valid mode, naming the field", async () => {
    const r = await api(s.url, "POST", "/api/v1/pods", { name: "x", mode: "solo" });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_request");
    expect(r.body.error.issues[0].path).toBe("mode");
  });

  it("a batch of 3 gets consecutive seqs; the same ids again get the same seqs and store nothing", async () => {
    const before = await tapeLength();
    const batch = [cp("a"), cp("b"), cp("c")];
    const first = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, { events: batch });
    expect(first.status).toBe(201);
    expect(first.body.events.map((e: { seq: number }) => e.seq)).toEqual([
      before + 1,
      before + 2,
      before + 3,
    ]);
    expect(first.body.events.map((e: { id: string }) => e.id)).toEqual(batch.map((e) => e.id));
    const again = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, { events: batch });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await tapeLength()).toBe(before + 3);
  });

  it("an invalid event is a 400 naming the field, and nothing of the request is stored", async () => {
    const before = await tapeLength();
    const bad = {
      type: "checkpoint",
      actor: "impl-1",
      body: { completed: [], next: "not a list", blocked: [] },
    };
    const r = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, { events: [cp("fine"), bad] });
    expect(r.status).toBe(400);
    expect(r.body.error.issues.map((i: { path: string }) => i.path)).toContain("events.1.body.next");
    expect(r.body.error.message).toContain("events.1.body.next");
    expect(await tapeLength()).toBe(before);
  });

  it("refuses unknown types, bad JSON, duplicate ids in one request and a single event's bad field", async () => {
    const unknownType = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "gossip",
      actor: "x",
      body: {},
    });
    expect(unknownType.status).toBe(400);
    expect(unknownType.body.error.issues[0].path).toBe("type");
    const badJson = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, "{not json");
    expect(badJson.status).toBe(400);
    expect(badJson.body.error.code).toBe("invalid_json");
    const id = randomUUID();
    const dup = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      events: [cp("1", id), cp("2", id)],
    });
    expect(dup.status).toBe(400);
    expect(dup.body.error.issues[0].path).toBe("events.1.id");
    const badNote = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "note",
      actor: "x",
      body: { kind: "RUMOUR", text: "hi" },
    });
    expect(badNote.status).toBe(400);
    expect(badNote.body.error.issues[0].path).toBe("body.kind");
  });

  it("an unknown pod is a 404, for writes and reads", async () => {
    expect((await api(s.url, "POST", "/api/v1/pods/nope/events", cp("x"))).status).toBe(404);
    expect((await api(s.url, "GET", "/api/v1/pods/nope/events")).status).toBe(404);
    expect((await api(s.url, "GET", "/api/v1/pods/nope")).status).toBe(404);
    const unknownRoute = await api(s.url, "GET", "/api/v1/nothing-here");
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.body.error.code).toBe("not_found");
  });

  it("an event id used by another pod is a 409", async () => {
    const other = (await api(s.url, "POST", "/api/v1/pods", { name: "other", mode: "contracting" })).body.id;
    const event = cp("mine");
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, event)).status).toBe(201);
    const r = await api(s.url, "POST", `/api/v1/pods/${other}/events`, event);
    expect(r.status).toBe(409);
    expect(await tapeLength(other)).toBe(0);
  });

  it("reads pages in seq order and verifies the chain", async () => {
    const page = await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=1&limit=2`);
    expect(page.body.events.map((e: { seq: number }) => e.seq)).toEqual([2, 3]);
    expect(page.body.events[0].body).toEqual({ completed: ["b"], next: [], blocked: [] });
    expect(page.body.events[1].prevHash).toBe(page.body.events[0].hash);
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/events?limit=5000`)).status).toBe(400);
    const v = await api(s.url, "GET", `/api/v1/pods/${podId}/verify`);
    expect(v.body).toEqual({ ok: true, checked: await tapeLength() });
  });

  it("concurrent writers get seqs 1..N with no gap and no duplicate", async () => {
    const pod = (await api(s.url, "POST", "/api/v1/pods", { name: "race", mode: "collaboration" })).body.id;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api(
          s.url,
          "POST",
          `/api/v1/pods/${pod}/events`,
          i % 3 ? cp(`single ${i}`) : { events: [cp(`b${i}`), cp(`c${i}`)] },
        ),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    const seqs = results
      .flatMap((r) => r.body.events.map((e: { seq: number }) => e.seq))
      .sort((a: number, b: number) => a - b);
    expect(seqs).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    expect((await api(s.url, "GET", `/api/v1/pods/${pod}/verify`)).body).toEqual({ ok: true, checked: 80 });
  });

  it("searches the tape, newest first: by type, actor, role, task, run and text", async () => {
    const pod = (await api(s.url, "POST", "/api/v1/pods", { name: "search", mode: "collaboration" })).body.id;
    await api(s.url, "POST", `/api/v1/pods/${pod}/events`, {
      events: [
        cp("alpha"),
        {
          type: "note",
          actor: "rev-9",
          role: "reviewer",
          taskId: "t-7",
          body: { kind: "STATUS", text: "Looks good to me" },
        },
        {
          type: "note",
          actor: "impl-1",
          runId: "r-2",
          body: { kind: "OBSERVATION", text: "100% of tests_pass" },
        },
        cp("omega"),
      ],
    });
    const find = async (query: string) =>
      (await api(s.url, "GET", `/api/v1/pods/${pod}/events?${query}`)).body.events.map(
        (e: { seq: number }) => e.seq,
      );
    expect(await find("type=checkpoint")).toEqual([4, 1]);
    expect(await find("type=note,checkpoint&limit=2")).toEqual([4, 3]);
    expect(await find("type=checkpoint&before=4")).toEqual([1]);
    expect(await find("actor=rev-9")).toEqual([2]);
    expect(await find("role=reviewer")).toEqual([2]);
    expect(await find("taskId=t-7")).toEqual([2]);
    expect(await find("runId=r-2")).toEqual([3]);
    expect(await find("q=looks%20GOOD")).toEqual([2]);
    expect(await find("q=100%25")).toEqual([3]); // % and _ are literal
    expect(await find("q=tests_pass")).toEqual([3]);
    expect(await find("q=nothing-like-this")).toEqual([]);
  });

  it("long-polls: a reader waiting after the head gets the next event as soon as it is written", async () => {
    const pod = (await api(s.url, "POST", "/api/v1/pods", { name: "long-poll", mode: "collaboration" })).body
      .id;
    await api(s.url, "POST", `/api/v1/pods/${pod}/events`, cp("first"));
    const listeners = s.app.bus.listenerCount("committed");
    let answered = false;
    const waiting = api(s.url, "GET", `/api/v1/pods/${pod}/events?after=1&wait=30`).finally(
      () => (answered = true),
    );
    await expect.poll(() => s.app.bus.listenerCount("committed")).toBe(listeners + 1); // parked on the bus
    expect(answered).toBe(false);
    await api(s.url, "POST", `/api/v1/pods/${pod}/events`, cp("second"));
    const got = await waiting;
    expect(got.status).toBe(200);
    expect(
      got.body.events.map((e: { seq: number; body: { completed: string[] } }) => [
        e.seq,
        e.body.completed[0],
      ]),
    ).toEqual([[2, "second"]]);
    expect(got.body.nextAfter).toBe(2);
    // Nothing new: it answers an empty page once the wait is over; backlog answers at once.
    expect((await api(s.url, "GET", `/api/v1/pods/${pod}/events?after=2&wait=0.2`)).body).toEqual({
      events: [],
      nextAfter: 2,
    });
    expect((await api(s.url, "GET", `/api/v1/pods/${pod}/events?after=0&wait=30`)).body.events).toHaveLength(
      2,
    );
    expect((await api(s.url, "GET", `/api/v1/pods/${pod}/events?wait=61`)).status).toBe(400);
    // A caller that hangs up stops waiting at once: nothing stays subscribed.
    const gone = new AbortController();
    const hungUp = fetch(`${s.url}/api/v1/pods/${pod}/events?after=2&wait=30`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      signal: gone.signal,
    }).catch(() => "aborted");
    await expect.poll(() => s.app.bus.listenerCount("committed")).toBe(listeners + 1);
    gone.abort();
    expect(await hungUp).toBe("aborted");
    await expect.poll(() => s.app.bus.listenerCount("committed")).toBe(listeners);
  });

  it("tells a credential who it speaks for", async () => {
    await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: "whoami-bot",
      kind: "agent",
      displayName: "w",
      roles: ["implementer"],
    });
    const { token } = (await api(s.url, "POST", `/api/v1/pods/${podId}/members/whoami-bot/tokens`, {})).body;
    expect((await api(s.url, "GET", "/api/v1/me", undefined, { token })).body).toEqual({
      kind: "agent",
      memberId: "whoami-bot",
      podId,
    });
    expect((await api(s.url, "GET", "/api/v1/me")).body).toEqual({ kind: "admin-token" });
    expect((await api(s.url, "GET", "/api/v1/me", undefined, null)).status).toBe(401);
  });

  it("the database itself refuses to update or delete an event", async () => {
    await expect(
      rawSql(s.db, `UPDATE event SET actor = 'mallory' WHERE pod_id = $1`, [podId]),
    ).rejects.toThrow(/append-only/);
    await expect(rawSql(s.db, `DELETE FROM event WHERE pod_id = $1`, [podId])).rejects.toThrow(/append-only/);
  });

  it("health and readiness", async () => {
    expect((await api(s.url, "GET", "/healthz")).body).toEqual({ ok: true });
    expect((await api(s.url, "GET", "/readyz")).body).toEqual({
      ok: true,
      database: provider,
      bus: provider === "postgres" ? "postgres" : "in-process",
      node: s.app.config.nodeId,
    });
  });
});
