// A board open on a lived-in pod (a 3,000-task plan with ordinary descriptions and metadata,
// tasks taken through implement → review → decide, thousands of notes) while agents post five
// events a second: what the browser downloads over 20 s is what the events changed, not the
// pod's state again per event. Counted by Chromium itself (CDP): every response's encoded
// bytes and every socket frame's payload.
import type { APIRequestContext, CDPSession } from "@playwright/test";
import { test, expect, adminHeaders, createPod, createPerson, postEvents, signIn, ev } from "./fixtures";

const TASKS = 3_000;
const DECIDED = 300;
const WAITING = 5;
const NOTES = 3_000;
const BATCH = 1_000;
const RATE = 5;
const SECONDS = 20;
const taskId = (i: number) => `t-${String(i).padStart(4, "0")}`;

async function postInBatches(request: APIRequestContext, podId: string, events: object[]) {
  for (let i = 0; i < events.length; i += BATCH) await postEvents(request, podId, events.slice(i, i + BATCH));
}

const throughReview = (id: string) => [
  ev("task.updated", "impl", {
    taskId: id,
    status: "in_progress",
    metadata: { startedBy: "impl", branch: `work/${id}` },
  }),
  ev("task.review_requested", "impl", { taskId: id }),
  ev("review", "rev", {
    taskId: id,
    verdict: "approve",
    comments: `Read the diff of ${id} and ran its tests; fine.`,
  }),
];

async function seedLivedInPod(request: APIRequestContext) {
  const pod = await createPod(request);
  await postEvents(request, pod.id, [
    ev("member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "Implementer" }),
    ev("member.joined", "admin", { memberId: "rev", kind: "agent", displayName: "Reviewer" }),
    ev("member.joined", "admin", { memberId: "chair", kind: "agent", displayName: "Chair" }),
    ev("role.assigned", "admin", { memberId: "chair", role: "chair" }),
  ]);
  const tasks = Array.from({ length: TASKS }, (_, i) =>
    ev("task.added", "impl", {
      taskId: taskId(i),
      description: `Step ${i} of the migration: move the ${["billing", "search", "accounts", "reports"][i % 4]} module onto the new storage layer, keep its public API, and add the tests that show it`,
      dependsOn: [],
      metadata: {
        area: ["billing", "search", "accounts", "reports"][i % 4],
        estimate: `${(i % 8) + 1}h`,
        owner: `team-${i % 12}`,
        labels: ["migration", `wave-${i % 5}`],
        link: `https://tracker.example.com/issues/${10_000 + i}`,
      },
    }),
  );
  await postInBatches(request, pod.id, tasks);
  const decided = Array.from({ length: DECIDED }, (_, i) => [
    ...throughReview(taskId(i)),
    ev("decision", "chair", {
      subject: { kind: "task", id: taskId(i) },
      verdict: "approve",
      rationale: "Reviewed and tested",
      evidenceIds: [],
    }),
  ]).flat();
  const waiting = Array.from({ length: WAITING }, (_, i) => throughReview(taskId(DECIDED + i))).flat();
  const notes = Array.from({ length: NOTES }, (_, i) =>
    ev("note", i % 2 ? "impl" : "rev", {
      kind: "STATUS",
      text: `Status ${i}: working through the plan, nothing blocked, next up is the ${i % 7}th module's tests.`,
    }),
  );
  await postInBatches(request, pod.id, [...decided, ...waiting, ...notes]);
  return pod;
}

/** Bytes Chromium takes in: responses as encoded on the wire (headers included) and socket frames' payloads. */
async function countBytes(cdp: CDPSession) {
  let bytes = 0;
  let counting = false;
  await cdp.send("Network.enable");
  cdp.on("Network.loadingFinished", (e) => counting && (bytes += e.encodedDataLength));
  cdp.on("Network.webSocketFrameReceived", (e) => counting && (bytes += e.response.payloadData.length));
  return { start: () => ((bytes = 0), (counting = true)), stop: () => ((counting = false), bytes) };
}

test("a board open on a lived-in pod downloads what the events changed, not the pod again per event", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(240_000);
  const pod = await seedLivedInPod(request);
  await signIn(context, await createPerson(request, pod.id, "viewer"));
  const bytes = await countBytes(await context.newCDPSession(page));
  // Requests, not responses: a read cancelled by the next one was a read too.
  const isState = (url: string) => new URL(url).pathname === `/api/v1/pods/${pod.id}/state`;
  const stateReads: string[] = [];
  const stateEncodings: string[] = [];
  page.on("request", (req) => isState(req.url()) && stateReads.push(req.url()));
  page.on(
    "response",
    (res) => isState(res.url()) && stateEncodings.push(res.headers()["content-encoding"] ?? "none"),
  );
  const document = await page.goto(`/pods/${pod.id}?tab=board`);
  const column = (title: string) => page.locator(`[data-testid="board-column"][data-column="${title}"]`);
  // Reviewed and approved, the waiting tasks are pinned above the columns until the chair decides.
  await expect(column("Waiting for a decision").getByTestId("task-card")).toHaveCount(WAITING, {
    timeout: 30_000,
  });
  await page.waitForTimeout(2_000); // the load settles: the tape's backlog, the navigation's inbox
  // The page and its one read of the pod's state came compressed.
  expect(document?.headers()["content-encoding"]).toMatch(/^(br|gzip)$/);
  expect(stateReads, "the page reads the pod's state once").toHaveLength(1);
  expect(stateEncodings).toEqual([expect.stringMatching(/^(br|gzip)$/)]);

  bytes.start();
  const moving = Array.from({ length: 4 }, (_, i) => taskId(TASKS - 1 - i));
  for (let tick = 0; tick < RATE * SECONDS; tick++) {
    const started = Date.now();
    // Every second, one event moves a task along; the others are notes.
    const task = moving[Math.floor(tick / RATE) % moving.length]!;
    const step = Math.floor(tick / (RATE * moving.length));
    const event =
      tick % RATE !== 0
        ? ev("note", "impl", { kind: "STATUS", text: `live ${tick}: still going` })
        : step === 0
          ? ev("task.updated", "impl", { taskId: task, status: "in_progress" })
          : step === 1
            ? ev("task.review_requested", "impl", { taskId: task })
            : ev("note", "rev", { kind: "STATUS", text: `looked at ${task}` });
    await postEvents(request, pod.id, [event]);
    await page.waitForTimeout(Math.max(0, 1_000 / RATE - (Date.now() - started)));
  }
  // The board shows the tasks that moved, and the last event reached the page.
  for (const id of moving)
    await expect(column("In review").getByTestId("task-card").filter({ hasText: id })).toBeVisible();
  await expect(column("In review").getByTestId("task-card")).toHaveCount(moving.length);
  await expect(column("Waiting for a decision").getByTestId("task-card")).toHaveCount(WAITING);
  const downloaded = bytes.stop();
  expect(stateReads, "no read of the whole state while events arrive").toHaveLength(1);
  console.log(
    `lived-in board: ${(downloaded / 1e6).toFixed(3)} MB downloaded in ${SECONDS} s at ${RATE} events/s`,
  );
  expect(downloaded).toBeLessThan(1_000_000);
});

test("the navigation's inbox count reads a pod's part of the inbox only when that pod's inbox changed", async ({
  page,
  context,
  request,
}) => {
  const [quiet, busy] = [await createPod(request), await createPod(request)];
  const team = () => [
    ev("member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "Implementer" }),
    ev("member.joined", "admin", { memberId: "rev", kind: "agent", displayName: "Reviewer" }),
  ];
  const waiting = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => [
      ev("task.added", "impl", { taskId: `${prefix}${i}`, description: `Task ${prefix}${i}` }),
      ...throughReview(`${prefix}${i}`),
    ]).flat();
  await postEvents(request, quiet.id, [...team(), ...waiting("q", 2)]);
  await postEvents(request, busy.id, [...team(), ...waiting("b", 20)]);
  const person = await createPerson(request, quiet.id, "viewer");
  await request.post(`/api/v1/pods/${busy.id}/members`, {
    data: { memberId: person.email, kind: "human", displayName: "A viewer", roles: ["viewer"] },
    headers: adminHeaders,
  });
  await signIn(context, person);
  const inboxReads: string[] = [];
  page.on(
    "request",
    (req) => new URL(req.url()).pathname === "/api/v1/inbox" && inboxReads.push(new URL(req.url()).search),
  );
  await page.goto("/account");
  await expect(page.getByTestId("nav-inbox-count")).toHaveText("22");
  await page.waitForTimeout(1_000);
  inboxReads.length = 0;
  // The busy pod's notes change no inbox: nothing is read again.
  for (let i = 0; i < 25; i++) {
    await postEvents(request, busy.id, [ev("note", "impl", { kind: "STATUS", text: `busy ${i}` })]);
    await page.waitForTimeout(1_000 / RATE);
  }
  await page.waitForTimeout(1_000);
  expect(inboxReads).toEqual([]);
  // A new item in the quiet pod: its part is read again, and the count moves.
  await postEvents(request, quiet.id, waiting("q-new", 1));
  await expect(page.getByTestId("nav-inbox-count")).toHaveText("23");
  expect(inboxReads).toEqual([`?podId=${quiet.id}`]);
});
