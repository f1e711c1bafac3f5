// An event whose body nests thousands of levels deep used to be
// stored (201) and then broke reading the tape and searching it (500), forever.
// Bounds are checked at the door, so what is accepted can always be read back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_BOUNDS } from "../domain/events/event-bounds";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

/** As text: JSON.stringify itself overflows the stack on such values. */
const nested = (levels: number) => `${'{"d":'.repeat(levels)}"leaf"${"}".repeat(levels)}`;
const deepNote = (levels: number) =>
  `{"type":"note","actor":"impl-1","body":{"kind":"OBSERVATION","BODY":${nested(levels)}}}`;

describe.each(testProviders())("event bounds on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let auth: { token: string };
  beforeAll(async () => {
    s = await startTestServer(provider);
    const pod = await agentPod(s.url, "bounds", { "impl-1": "implementer" });
    podId = pod.podId;
    auth = { token: pod.tokens["impl-1"]! };
  });
  afterAll(() => s.stop());

  const post = (path: string, body: unknown) =>
    api(s.url, "POST", `/api/v1/pods/${podId}${path}`, body, auth);
  const eventCount = async () =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}`, undefined, auth)).body.eventCount as number;
  async function expectEveryReaderWorks() {
    for (const path of [
      "/events?after=0",
      "/events?q=leaf",
      "/events?type=note",
      "/state",
      "/state?atSeq=3",
      "/plan",
      "/verify",
    ]) {
      const r = await api(s.url, "GET", `/api/v1/pods/${podId}${path}`, undefined, auth);
      expect(r.status, path).toBe(200);
    }
  }

  it("the deepest note the server accepts can still be read, searched and replayed", async () => {
    // Before the bounds, ~4,000 levels were accepted and /events then failed with 500.
    let accepted = 0;
    let refused = 20_000;
    while (refused - accepted > 1) {
      const mid = (accepted + refused) >> 1;
      const r = await post("/events", deepNote(mid));
      expect(r.status, `depth ${mid}`).toBeLessThan(500);
      if (r.status === 201) accepted = mid;
      else refused = mid;
    }
    expect(accepted).toBe(EVENT_BOUNDS.maxDepth - 1); // the body itself is level 1
    await expectEveryReaderWorks();
  });

  it("refuses a note nested deeper than the limit with a 400 naming the limit and the path; nothing is stored", async () => {
    const before = await eventCount();
    const r = await post("/events", deepNote(100));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_request");
    expect(r.body.error.message).toContain(`deeper than ${EVENT_BOUNDS.maxDepth} levels`);
    expect(r.body.error.issues[0].path).toBe(
      ["body", "BODY", ...Array(EVENT_BOUNDS.maxDepth - 1).fill("d")].join("."),
    );
    // Thousands of levels are refused before the JSON is even parsed.
    const deeper = await post("/events", deepNote(5000));
    expect(deeper.status).toBe(400);
    expect(deeper.body.error.code).toBe("json_too_deep");
    expect(await eventCount()).toBe(before);
    await expectEveryReaderWorks();
  });

  it("bounds every door: batches, task metadata, plan.json and a workcell manifest", async () => {
    const before = await eventCount();
    const deep = JSON.parse(nested(EVENT_BOUNDS.maxDepth));
    const batch = await post("/events", {
      events: [
        { type: "note", actor: "impl-1", body: { kind: "STATUS", text: "fine" } },
        {
          type: "task.added",
          actor: "impl-1",
          body: { taskId: "t-deep", description: "deep", metadata: { x: deep } },
        },
      ],
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error.issues[0].path).toMatch(/^events\.1\.body\.metadata\.x(\.d)+$/);
    const plan = await post("/plan", { tasks: [{ task_id: "t1", description: "deep", metadata: deep }] });
    expect(plan.status).toBe(400);
    expect(plan.body.error.message).toContain("levels");
    const manifest = {
      schema_version: "1",
      workcell_id: "wc-deep",
      issue: { id: "i1", title: "deep" },
      toolchain: "node",
      toolchain_config: deep,
      branch_name: "b",
    };
    const opened = await post("/workcells", manifest);
    expect(opened.status).toBe(400);
    expect(opened.body.error.issues[0].path).toMatch(/^body\.manifest\.toolchain_config(\.d)+$/);
    expect(await eventCount()).toBe(before);
  });

  it("refuses a body over the size limit, and accepts one just under it", async () => {
    const pad = (n: number) => ({
      type: "note",
      actor: "impl-1",
      body: { kind: "STATUS", text: "size", BODY: "x".repeat(n) },
    });
    const overhead = JSON.stringify(pad(0).body).length;
    const over = await post("/events", pad(EVENT_BOUNDS.maxBytes - overhead + 1));
    expect(over.status).toBe(400);
    expect(over.body.error.message).toContain(`more than ${EVENT_BOUNDS.maxBytes}`);
    expect((await post("/events", pad(EVENT_BOUNDS.maxBytes - overhead))).status).toBe(201);
    await expectEveryReaderWorks();
  });
});
