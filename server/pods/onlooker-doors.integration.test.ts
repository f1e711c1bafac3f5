// A share link's onlooker reads no person's email by any door: the tape (REST and the live socket,
// backlog and frames), the state and its change notices, signals and the signals export. The pod's
// people are named instead (server/pods/onlooker-view.ts); a member reads the tape as it was written.
import { randomUUID } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../testing/eventually";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const ANA = "ana@example.com"; // the chair, named "Ana"
const BO = "bo@example.com"; // named by her email
const CY = "cy@example.com"; // wrote on the tape, then was removed from the pod
const DEE = "dee@example.com"; // joins while the onlooker watches
const EMAILS = [ANA, BO, CY, DEE];
const ANY_ADDRESS = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/;

const ev = (type: string, actor: string, body: object) => ({ id: randomUUID(), type, actor, body });

/** No address of any person anywhere in what was read (serialised whole). */
function expectNoEmail(what: string, payload: unknown) {
  const text = JSON.stringify(payload);
  for (const email of EMAILS) expect(text, what).not.toContain(email);
  expect(text.match(ANY_ADDRESS)?.[0] ?? null, what).toBeNull();
}

/** A socket subscribed to the pod from seq 0 (`times` in a row), recording every frame it hears. */
async function watch(url: string, auth: { token?: string; cookie?: string }, podId: string, times = 1) {
  const socket: Client = connect(url, {
    transports: ["websocket"],
    forceNew: true,
    reconnection: false,
    auth: auth.token ? { token: auth.token } : {},
    extraHeaders: auth.cookie ? { cookie: auth.cookie } : {},
  });
  const heard = { events: [] as { seq: number }[], deltas: [] as { seq: number }[] };
  socket.on("tape:events", (frame, ack) => (heard.events.push(...frame.events), ack?.()));
  socket.on("pod:delta", (frame) => void heard.deltas.push(frame));
  await new Promise<void>((resolve, reject) => {
    socket.once("tape:live", () => resolve());
    socket.once("tape:error", (e) => reject(new Error(e.message)));
    socket.once("connect_error", reject);
    for (let i = 0; i < times; i++) socket.emit("tape:subscribe", { podId, afterSeq: 0 });
  });
  return { socket, heard };
}

describe.each(testProviders())("a share link's onlooker on %s", (provider) => {
  let s: TestServer;
  let pod: { podId: string; tokens: Record<string, string> };
  let share: { cookie: string };
  const admin = { token: TEST_ADMIN_TOKEN };

  const append = async (events: unknown[], auth: { token: string } = admin) => {
    const r = await api(s.url, "POST", `/api/v1/pods/${pod.podId}/events`, { events }, auth);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.events.at(-1).seq as number;
  };
  const person = async (memberId: string, displayName: string, roles: string[]) => {
    const body = { memberId, kind: "human", displayName, roles };
    const r = await api(s.url, "POST", `/api/v1/pods/${pod.podId}/members`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  };

  beforeAll(async () => {
    s = await startTestServer(provider);
    pod = await agentPod(s.url, "watched", { impl: "implementer", rev: "reviewer" });
    await person(ANA, "Ana", ["chair", "approver"]);
    await person(BO, BO, ["viewer"]);
    await person(CY, "Cy", ["approver"]);
    await append([ev("note", CY, { kind: "STATUS", text: `handing over to ${ANA}` })]);
    expect(
      (await api(s.url, "DELETE", `/api/v1/pods/${pod.podId}/members/${encodeURIComponent(CY)}`)).status,
    ).toBe(200);
    await append([
      ev("pod.scope_agreed", ANA, { scope: "s", successCriteria: ["c"] }),
      ev("pod.started", ANA, {}),
    ]);
    const impl = { token: pod.tokens.impl! };
    await append(
      [
        ev("task.added", "impl", { taskId: "t1", description: "d" }),
        ev("task.updated", "impl", { taskId: "t1", status: "in_progress" }),
        ev("task.review_requested", "impl", { taskId: "t1" }),
      ],
      impl,
    );
    await append([ev("review", "rev", { taskId: "t1", verdict: "approve", comments: "ok" })], {
      token: pod.tokens.rev!,
    });
    await append([
      ev("decision", ANA, {
        subject: { kind: "task", id: "t1" },
        verdict: "reject",
        rationale: `Out of scope; ask ${BO}`,
        evidenceIds: [],
      }),
    ]);
    const link = await api(s.url, "POST", `/api/v1/pods/${pod.podId}/share-links`, { expiresInHours: 1 });
    expect(link.status).toBe(201);
    share = { cookie: `pw_share=${link.body.token}` };
  });
  afterAll(() => s.stop());

  it("reads the tape with people named, and a member reads it as written", async () => {
    const seen = await api(s.url, "GET", `/api/v1/pods/${pod.podId}/events?after=0`, undefined, share);
    expect(seen.status).toBe(200);
    expectNoEmail("the tape's page", seen.body);
    const decision = seen.body.events.find((e: { type: string }) => e.type === "decision");
    expect(decision).toMatchObject({
      actor: "Ana",
      body: { rationale: expect.stringMatching(/^Out of scope; ask person #\d+$/) },
    });
    // A search too; the removed person's address reads as someone's.
    const search = await api(s.url, "GET", `/api/v1/pods/${pod.podId}/events?type=note`, undefined, share);
    expectNoEmail("a search of the tape", search.body);
    expect(search.body.events[0]).toMatchObject({ actor: "a person", body: { text: "handing over to Ana" } });
    // It searches people by the names it reads; an address, found or not, would say who is on the pod.
    const byName = await api(s.url, "GET", `/api/v1/pods/${pod.podId}/events?actor=Ana`, undefined, share);
    expect(byName.body.events.map((e: { type: string }) => e.type)).toEqual([
      "decision",
      "pod.started",
      "pod.scope_agreed",
    ]);
    expectNoEmail("a search by name", byName.body);
    for (const query of [`actor=${ANA}`, `q=${encodeURIComponent(BO)}`, "q=nobody%40example.org"]) {
      const probe = await api(s.url, "GET", `/api/v1/pods/${pod.podId}/events?${query}`, undefined, share);
      expect(probe.status, query).toBe(422);
      expectNoEmail(query, probe.body);
    }
    // Text is looked for in what the onlooker reads: a piece of an address finds nothing (it would
    // say who wrote what), and LIKE's `_` is no wildcard; a name finds what it names.
    for (const q of ["example.com", "bo_example", "b_@"]) {
      const probe = await api(s.url, "GET", `/api/v1/pods/${pod.podId}/events?q=${q}`, undefined, share);
      if (q.includes("@")) expect(probe.status, q).toBe(422);
      else expect([probe.status, probe.body.events], q).toEqual([200, []]);
    }
    const text = await api(
      s.url,
      "GET",
      `/api/v1/pods/${pod.podId}/events?q=out%20of%20scope`,
      undefined,
      share,
    );
    expect(text.body.events.map((e: { type: string }) => e.type)).toEqual(["decision"]);
    // No hash either: each is over the event as written, its actor's address with it.
    for (const e of [...seen.body.events, ...text.body.events])
      expect([e.hash, e.prevHash]).toEqual(["", ""]);
    const member = await api(s.url, "GET", `/api/v1/pods/${pod.podId}/events?after=0`, undefined, {
      token: pod.tokens.impl!,
    });
    expect(member.body.events[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(member.body)).toContain(ANA);
    expect(JSON.stringify(member.body)).toContain(CY);
  });

  it("reads the state, signals and the signals export with no email; the signed record is not its to read", async () => {
    for (const path of [
      `/api/v1/pods/${pod.podId}/state`,
      `/api/v1/pods/${pod.podId}/signals`,
      `/api/v1/signals`,
      `/api/v1/pods/${pod.podId}`,
      `/api/v1/pods`,
      `/api/v1/inbox`,
      `/api/v1/pods/${pod.podId}/plan`,
    ]) {
      const r = await api(s.url, "GET", path, undefined, share);
      expect(r.status, path).toBe(200);
      expectNoEmail(path, r.body);
    }
    const csv = await fetch(`${s.url}/api/v1/signals?format=csv`, { headers: { cookie: share.cookie } });
    expect(csv.status).toBe(200);
    const rows = await csv.text();
    expect(rows).toContain(pod.podId);
    expectNoEmail("the signals export as CSV", rows);
    const signals = await api(s.url, "GET", `/api/v1/pods/${pod.podId}/signals`, undefined, share);
    expect(signals.body.decisions.deciders).toMatchObject([{ by: "Ana", displayName: "Ana", count: 1 }]);
    const theirs = await api(s.url, "GET", `/api/v1/pods/${pod.podId}/signals`);
    expect(theirs.body.decisions.deciders).toMatchObject([{ by: ANA, displayName: "Ana" }]);
    const record = await api(
      s.url,
      "GET",
      `/api/v1/signals/record?pod=${pod.podId}&agent=impl`,
      undefined,
      share,
    );
    expect(record.status).toBe(403);
    expectNoEmail("a refused record", record.body);
  });

  it("hears the backlog, live frames and change notices with people named; a member's frames are unchanged", async () => {
    const onlooker = await watch(s.url, share, pod.podId);
    const member = await watch(s.url, { token: pod.tokens.impl! }, pod.podId);
    await person(DEE, "Dee", ["viewer"]);
    const head = await append([ev("note", ANA, { kind: "STATUS", text: `welcome ${DEE}, and ${BO}` })]);
    for (const w of [onlooker, member])
      await eventually(
        async () => [w.heard.events.at(-1)?.seq ?? 0, w.heard.deltas.at(-1)?.seq ?? 0],
        ([events, deltas]) => events === head && deltas === head,
        "the frames up to the head",
      );
    onlooker.socket.close();
    member.socket.close();
    expectNoEmail("the onlooker's frames", onlooker.heard);
    const said = onlooker.heard.events.at(-1);
    expect(said).toMatchObject({
      actor: "Ana",
      body: { text: expect.stringMatching(/^welcome Dee, and person #/) },
    });
    expect(JSON.stringify(onlooker.heard.deltas)).toContain("Dee");
    expect(member.heard.events.at(-1)).toMatchObject({
      actor: ANA,
      body: { text: `welcome ${DEE}, and ${BO}` },
    });
    expect(JSON.stringify(member.heard.deltas)).toContain(DEE);
  });

  it("hears nothing as written after subscribing twice (a newer subscription replaces the older)", async () => {
    const onlooker = await watch(s.url, share, pod.podId, 2);
    const head = await append([ev("note", ANA, { kind: "STATUS", text: `over to ${BO}` })]);
    await eventually(
      async () => onlooker.heard.events.at(-1)?.seq ?? 0,
      (seq) => seq === head,
      "the frame of the note",
    );
    onlooker.socket.close();
    expectNoEmail("the frames after a second subscription", onlooker.heard);
    for (const e of onlooker.heard.events as { hash?: string }[]) expect(e.hash).toBe("");
  });
});
