// Live views by change notice (server/realtime/state-deltas.ts), over real sockets: a spectator
// that applies each "pod:delta" to the view it read holds what GET /state answers, a note costs
// it a few hundred bytes, and a person hears "pods:inbox" only for their own pods' inboxes.
import { randomUUID } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { applyStateDelta, deltaFits } from "../../components/pod/apply-state-delta";
import type { ClientToServerEvents, PodDeltaFrame, ServerToClientEvents } from "../wire/socket";
import type { PodStateView } from "../wire/views";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ev = (type: string, actor: string, body: object) => ({ id: randomUUID(), type, actor, body });
const note = (text: string) => ev("note", "impl", { kind: "STATUS", text });
const team = () => [
  ev("member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "Implementer" }),
  ev("member.joined", "admin", { memberId: "rev", kind: "agent", displayName: "Reviewer" }),
];
/** Retries an assertion until it holds (at most 10 s). */
async function eventually(check: () => void) {
  for (const start = Date.now(); ; await sleep(20)) {
    try {
      return check();
    } catch (e) {
      if (Date.now() - start > 10_000) throw e;
    }
  }
}

/** The admin watching a pod from `afterSeq`, its change notices gathered; `live` once its backlog is sent. */
function spectate(url: string, podId: string, afterSeq: number) {
  const socket: Client = connect(url, {
    transports: ["websocket"],
    forceNew: true,
    auth: { token: TEST_ADMIN_TOKEN },
  });
  const frames: PodDeltaFrame[] = [];
  socket.on("pod:delta", (f) => frames.push(f));
  socket.on("tape:events", (_f, ack) => ack?.());
  const live = new Promise<void>((resolve) => socket.once("tape:live", () => resolve()));
  socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq }));
  return { socket, frames, live };
}

describe.each(testProviders())("change notices of live views on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(provider);
  });
  afterAll(() => s.stop());

  const post = async (podId: string, events: object[]) =>
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, { events })).status).toBe(201);
  const newPod = async (name: string) => {
    const podId: string = (await api(s.url, "POST", "/api/v1/pods", { name, mode: "collaboration" })).body.id;
    await post(podId, team());
    return podId;
  };

  async function person(email: string) {
    const password = "a long enough password";
    expect((await api(s.url, "POST", "/api/v1/users", { email, name: email, password })).status).toBe(201);
    const res = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: JSON.stringify({ email, password }),
    });
    return res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }

  it("keep a spectator's view equal to GET /state, a note costing it a few hundred bytes", async () => {
    const podId = await newPod("deltas");
    await post(
      podId,
      Array.from({ length: 300 }, (_, i) =>
        ev("task.added", "impl", { taskId: `t${i}`, description: `Task ${i}, described as tasks are` }),
      ),
    );
    let view = (await api<PodStateView>(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    const { socket, frames, live } = spectate(s.url, podId, view.seq);
    try {
      await live;
      await sleep(100); // the node takes the state the notices start from
      const apply = () => {
        for (const f of frames.splice(0)) {
          expect(deltaFits(view, f)).not.toBe("gap");
          if (deltaFits(view, f) === "apply") view = applyStateDelta(view, f);
        }
      };
      await post(podId, [note("just a note")]);
      await eventually(() => expect(frames.length).toBeGreaterThan(0));
      const noteBytes = JSON.stringify(frames[0]).length;
      expect(noteBytes).toBeLessThan(600);
      apply();
      await post(podId, [
        ev("task.updated", "impl", { taskId: "t7", status: "in_progress" }),
        ev("task.review_requested", "impl", { taskId: "t7" }),
      ]);
      await post(podId, [
        ev("review", "rev", { taskId: "t7", verdict: "approve", comments: "fine" }),
        ev("task.added", "impl", { taskId: "late", description: "Added late" }),
      ]);
      const head = (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount as number;
      await eventually(() => expect(frames.at(-1)?.seq).toBe(head));
      apply();
      const now = (await api<PodStateView>(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
      expect(view).toEqual(now);
      expect(view.board.find((t) => t.taskId === "t7")?.status).toBe("in_review");
      expect(view.inbox.map((i) => i.title).join()).toMatch(/t7/);
    } finally {
      socket.close();
    }
  });

  it("tell a spectator who read the view before its latest events that it is behind", async () => {
    const podId = await newPod("read before the join");
    const view = (await api<PodStateView>(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    await post(podId, [note("landed between the read and the join")]);
    const { socket, frames } = spectate(s.url, podId, view.seq);
    try {
      // No event follows, yet the page learns its view is behind and reads it again.
      await eventually(() => expect(frames.map((f) => deltaFits(view, f))).toContain("gap"));
      expect(frames.at(-1)).toMatchObject({ seq: view.seq + 1, set: {}, lists: {}, tails: {} });
    } finally {
      socket.close();
    }
  });

  it("ask for a read of the view when what changed weighs more than the view compressed", async () => {
    const podId = await newPod("big change");
    const { socket, frames, live } = spectate(s.url, podId, 0);
    try {
      await live;
      await sleep(100);
      const long = "a task described at length, as a plan's tasks are. ".repeat(6);
      await post(
        podId,
        Array.from({ length: 400 }, (_, i) =>
          ev("task.added", "impl", { taskId: `big${i}`, description: `${i}: ${long}` }),
        ),
      );
      await eventually(() => expect(frames.length).toBeGreaterThan(0));
      expect(frames.at(-1)).toMatchObject({ reread: true, lists: {}, set: {} });
      expect(JSON.stringify(frames.at(-1)).length).toBeLessThan(300);
    } finally {
      socket.close();
    }
  });

  it("tell a person only about their own pods' inboxes, and only when the inbox changed", async () => {
    const mine = await newPod("mine");
    const theirs = await newPod("theirs");
    const email = `counted-${provider}@example.com`;
    const cookie = await person(email);
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${mine}/members`, {
          memberId: email,
          kind: "human",
          displayName: "Cat",
          roles: ["viewer"],
        })
      ).status,
    ).toBe(201);
    const socket: Client = connect(s.url, {
      transports: ["websocket"],
      forceNew: true,
      extraHeaders: { cookie, origin: s.url },
    });
    const inboxes: string[] = [];
    const counts: string[] = [];
    socket.on("pods:inbox", (f) => inboxes.push(f.podId));
    socket.on("pods:count", (f) => counts.push(f.podId));
    try {
      await new Promise<void>((resolve) =>
        socket.on("connect", () => socket.emit("pods:subscribe", () => resolve())),
      );
      await sleep(100);
      const toReview = (podId: string, taskId: string) =>
        post(podId, [
          ev("task.added", "impl", { taskId, description: `Task ${taskId}` }),
          ev("task.updated", "impl", { taskId, status: "in_progress" }),
          ev("task.review_requested", "impl", { taskId }),
          ev("review", "rev", { taskId, verdict: "approve" }),
        ]);
      await toReview(theirs, "other");
      await post(mine, [note("nothing for the inbox")]);
      await eventually(() => expect(counts).toContain(mine));
      await sleep(300);
      expect(inboxes).toEqual([]);
      await toReview(mine, "t1");
      await eventually(() => expect(inboxes).toEqual([mine]));
      // The pod's part of the inbox is what the person reads again.
      const part = await api(s.url, "GET", `/api/v1/inbox?podId=${mine}`, undefined, { cookie });
      expect(part.body.items.map((i: { podId: string; title: string }) => [i.podId, i.title])).toEqual([
        [mine, expect.stringMatching(/t1/)],
      ]);
      const none = await api(s.url, "GET", `/api/v1/inbox?podId=${theirs}`, undefined, { cookie });
      expect(none.body.items).toEqual([]);
      expect(counts).not.toContain(theirs);
    } finally {
      socket.close();
    }
  });
});
