// One agent used to grow a pod until it stopped taking events: plan after plan of large task
// metadata, each within the bounds of one event, brought the state past what a string holds
// (500 on every append, the tape unreadable). What a pod accumulates is bounded now: the event
// that would cross a bound is refused with a 422 naming it, nothing of it is written, and the
// pod goes on taking events. The sizes are smaller than in the wild (~1 KiB of metadata per
// task instead of ~1 MB per plan) and the mechanism is the same: many accepted plans.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POD_BOUNDS } from "../domain/pod-bounds";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

const PER_PLAN = 800;
const plan = (from: number, n: number, metaChars = 1000, prefix = "t") => ({
  tasks: Array.from({ length: n }, (_, i) => ({
    task_id: `${prefix}${from + i}`,
    description: `task ${from + i}`,
    metadata: { blob: "m".repeat(metaChars) },
  })),
});
const imported = (p: object) => ({ type: "plan.imported", actor: "impl-1", body: { plan: p } });

describe.each(testProviders())("what a pod accumulates is bounded, on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let auth: { token: string };
  beforeAll(async () => {
    s = await startTestServer(provider);
    const pod = await agentPod(s.url, "bounded", { "impl-1": "implementer" });
    podId = pod.podId;
    auth = { token: pod.tokens["impl-1"]! };
  });
  afterAll(() => s.stop());

  const post = (body: unknown) => api(s.url, "POST", `/api/v1/pods/${podId}/events`, body, auth);
  const get = (path: string) => api(s.url, "GET", `/api/v1/pods/${podId}${path}`, undefined, auth);
  const eventCount = async () => (await get("")).body.eventCount as number;
  async function expectAppendableAndReadable() {
    const note = await post({ type: "note", actor: "impl-1", body: { kind: "STATUS", text: "still here" } });
    expect(note.status).toBe(201);
    for (const path of [
      "/events?after=0&limit=5",
      "/events?q=still",
      "/state",
      "/state?atSeq=3",
      "/plan",
      "/verify",
    ]) {
      expect((await get(path)).status, path).toBe(200);
    }
  }

  it("refuses a task whose metadata or description is over its size limit, naming the limit", async () => {
    const before = await eventCount();
    const big = await post(imported(plan(0, 1, POD_BOUNDS.taskMetadataBytes, "big")));
    expect(big.status).toBe(400);
    expect(big.body.error.message).toContain(`${POD_BOUNDS.taskMetadataBytes} bytes`);
    expect(big.body.error.issues[0].path).toBe("body.plan.tasks.0.metadata");
    const long = await post({
      type: "task.added",
      actor: "impl-1",
      body: { taskId: "long", description: "é".repeat(4097) },
    });
    expect(long.status).toBe(400);
    expect(long.body.error.issues[0].path).toBe("body.description");
    expect(await eventCount()).toBe(before);
  });

  it("plans accumulate up to the task bound; the plan that would cross it gets a 422 naming it, and the pod goes on", async () => {
    let imported_ = 0;
    while (imported_ < POD_BOUNDS.tasks) {
      const n = Math.min(PER_PLAN, POD_BOUNDS.tasks - imported_);
      const r = await post(imported(plan(imported_, n)));
      expect(r.status, `tasks ${imported_}..${imported_ + n}`).toBe(201);
      imported_ += n;
    }
    const before = await eventCount();
    const over = await post(imported(plan(imported_, PER_PLAN)));
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe("bound_exceeded");
    expect(over.body.error.message).toContain(`${POD_BOUNDS.tasks} tasks`);
    expect(over.body.error.message).toContain("bound: tasks");
    // All or nothing: a batch whose last event crosses the bound stores none of its events.
    const batch = await post({
      events: [
        { type: "note", actor: "impl-1", body: { kind: "STATUS", text: "first" } },
        imported(plan(imported_, 1)),
      ],
    });
    expect(batch.status).toBe(422);
    expect(await eventCount()).toBe(before);
    expect((await get("/state")).body.board).toHaveLength(POD_BOUNDS.tasks);
    await expectAppendableAndReadable();
  }, 120_000);

  it("a pod takes at most so many agents: the next gets a 422 naming the bound, a person still joins", async () => {
    const add = (memberId: string, kind: "agent" | "human") =>
      api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
        memberId,
        kind,
        displayName: memberId,
        roles: [],
      });
    for (let i = 1; i < POD_BOUNDS.agents; i++) expect((await add(`agent-${i}`, "agent")).status).toBe(201); // impl-1 is one
    const before = await eventCount();
    const over = await add("one-agent-too-many", "agent");
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe("bound_exceeded");
    expect(over.body.error.message).toContain(`at most ${POD_BOUNDS.agents} agent members`);
    expect(await eventCount()).toBe(before);
    expect((await add("a-person", "human")).status).toBe(201);
    await expectAppendableAndReadable();
  });

  it("task.updated cannot grow a task's metadata past its limit by merging", async () => {
    const update = (key: string) => ({
      type: "task.updated",
      actor: "impl-1",
      body: { taskId: "t1", metadata: { [key]: "u".repeat(3000) } },
    });
    expect((await post(update("a"))).status).toBe(201);
    expect((await post(update("b"))).status).toBe(201);
    const before = await eventCount();
    const over = await post(update("c"));
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe("bound_exceeded");
    expect(over.body.error.message).toContain(`${POD_BOUNDS.taskMetadataBytes} bytes`);
    expect(await eventCount()).toBe(before);
    // Replacing a key keeps the size: still accepted.
    expect((await post(update("a"))).status).toBe(201);
    await expectAppendableAndReadable();
  });
});
