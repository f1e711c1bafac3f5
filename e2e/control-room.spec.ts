import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  test,
  expect,
  createPod,
  createPerson,
  postEvents,
  adminPost,
  signIn,
  adminHeaders,
  ev,
} from "./fixtures";

const seed = (name: string) =>
  JSON.parse(readFileSync(join(process.cwd(), "server/testing/seed-examples", name), "utf8"));
const team = () => [
  ev("member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "Implementer" }),
  ev("member.joined", "admin", { memberId: "rev", kind: "agent", displayName: "Reviewer" }),
];
const taskInReview = (id: string) => [
  ev("task.added", "impl", { taskId: id, description: `Task ${id}` }),
  ev("task.updated", "impl", { taskId: id, status: "in_progress" }),
  ev("task.review_requested", "impl", { taskId: id }),
  ev("review", "rev", { taskId: id, verdict: "approve" }),
];

test("two spectators see the same live updates on board and tape", async ({ browser, request }) => {
  const pod = await createPod(request);
  await postEvents(request, pod.id, team());
  const viewer = await createPerson(request, pod.id, "viewer");
  const pages = [];
  for (const tab of ["board", "tape"]) {
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext();
      await signIn(context, viewer);
      const page = await context.newPage();
      await page.goto(`/pods/${pod.id}?tab=${tab}`);
      pages.push({ tab, page });
    }
  }
  await postEvents(request, pod.id, [
    ev("task.added", "impl", { taskId: "live-1", description: "Appears everywhere at once" }),
  ]);
  for (const { tab, page } of pages) {
    if (tab === "board")
      await expect(
        page.getByTestId("task-card").filter({ hasText: "Appears everywhere at once" }),
      ).toBeVisible();
    else
      await expect(
        page.getByTestId("tape-event").filter({ hasText: "Appears everywhere at once" }),
      ).toBeVisible();
  }
  await postEvents(request, pod.id, [
    ev("task.updated", "impl", { taskId: "live-1", status: "in_progress" }),
  ]);
  for (const { tab, page } of pages) {
    if (tab === "board")
      await expect(
        page.getByTestId("board-column").filter({ hasText: "In progress" }).getByTestId("task-card"),
      ).toHaveCount(1);
    else
      await expect(
        page.getByTestId("tape-event").filter({ hasText: "Task live-1 → in_progress" }),
      ).toBeVisible();
  }
  for (const { page } of pages) await page.context().close();
});

test("a human answers an escalation in the inbox; the agent's next read sees the answer", async ({
  page,
  context,
  request,
}) => {
  const pod = await createPod(request);
  await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
    memberId: "asker",
    kind: "agent",
    displayName: "Asker",
    roles: ["implementer"],
  });
  const { token } = await adminPost(request, `/api/v1/pods/${pod.id}/members/asker/tokens`, {});
  const agent = { authorization: `Bearer ${token}` };
  const asked = await request.post(`/api/v1/pods/${pod.id}/events`, {
    headers: agent,
    data: ev("escalation", "asker", {
      escalationId: "q1",
      kind: "risk_tolerance",
      question: "Deploy on Friday?",
      options: ["Yes", "Wait for Monday"],
    }),
  });
  expect(asked.status()).toBe(201);
  await signIn(context, await createPerson(request, pod.id, "approver"));
  await page.goto("/inbox");
  await expect(page.getByTestId("nav-inbox-count")).toBeVisible();
  const item = page.getByTestId("inbox-item").filter({ hasText: "Deploy on Friday?" });
  await item.getByRole("button", { name: "Wait for Monday" }).click();
  await expect(item).toHaveCount(0);
  const state = await (await request.get(`/api/v1/pods/${pod.id}/state`, { headers: agent })).json();
  expect(state.escalations[0].answer).toMatchObject({ answer: "Wait for Monday" });
});

test("approve and reject tasks; accept and reject jobs (escrow released / refunded)", async ({
  page,
  context,
  request,
}) => {
  const pod = await createPod(request);
  const job = (id: string) => [
    ev("job.posted", "admin", {
      jobId: id,
      scope: `Job ${id}`,
      acceptanceTests: ["it works"],
      settlement: { amount: 100, currency: "EUR", terms: "on acceptance" },
    }),
    ev("job.funded", "admin", { jobId: id }),
    ev("job.delivered", "impl", { jobId: id }),
  ];
  await postEvents(request, pod.id, [
    ...team(),
    ...taskInReview("ok"),
    ...taskInReview("no"),
    ...job("j-accept"),
    ...job("j-reject"),
  ]);
  await signIn(context, await createPerson(request, pod.id, "approver"));
  await page.goto(`/pods/${pod.id}?tab=inbox`);
  // Keyboard: focus the item, "a" approves it.
  await page.getByTestId("inbox-item").filter({ hasText: "Approve task ok" }).focus();
  await page.keyboard.press("a");
  await expect(page.getByTestId("inbox-item").filter({ hasText: "Approve task ok" })).toHaveCount(0);
  await page
    .getByTestId("inbox-item")
    .filter({ hasText: "Approve task no" })
    .getByRole("button", { name: "Reject", exact: true })
    .click();
  await page
    .getByTestId("inbox-item")
    .filter({ hasText: "j-accept" })
    .getByRole("button", { name: "Accept and release" })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Accept and release" }).click(); // moving money asks first
  await expect(page.getByTestId("inbox-item").filter({ hasText: "j-accept" })).toHaveCount(0);
  await page
    .getByTestId("inbox-item")
    .filter({ hasText: "j-reject" })
    .getByRole("button", { name: "Reject and refund" })
    .click();
  await page.getByRole("dialog").getByRole("button", { name: "Reject and refund" }).click();
  await expect(page.getByTestId("inbox-item")).toHaveCount(0);
  await page.getByRole("tab", { name: "board" }).click();
  await expect(page.locator('[data-task="ok"]')).toHaveAttribute("data-status", "done");
  await expect(page.locator('[data-task="no"]')).toHaveAttribute("data-status", "rejected");
  await page.getByRole("tab", { name: "job" }).click();
  await expect(page.locator('[data-job="j-accept"]').getByTestId("escrow")).toHaveText("released");
  await expect(page.locator('[data-job="j-reject"]').getByTestId("escrow")).toHaveText("refunded");
});

test("approve is disabled for work whose proof has a failing gate", async ({ page, context, request }) => {
  const pod = await createPod(request);
  const manifest = { ...seed("manifest.json"), workcell_id: "wc-gate" };
  manifest.issue = { ...manifest.issue, id: "gate" };
  const proof = seed("proof.json");
  Object.assign(proof, { workcell_id: "wc-gate", issue_id: "gate", status: "failed" });
  proof.verification.gates.test.passed = false;
  proof.verification.all_passed = false;
  proof.verification.blocking_failures = ["test"];
  await postEvents(request, pod.id, [
    ...team(),
    ev("task.added", "impl", { taskId: "gate", description: "Gated work" }),
  ]);
  const admin = adminHeaders;
  expect(
    (await request.post(`/api/v1/pods/${pod.id}/workcells`, { data: manifest, headers: admin })).status(),
  ).toBe(201);
  expect(
    (
      await request.post(`/api/v1/pods/${pod.id}/workcells/wc-gate/proof`, { data: proof, headers: admin })
    ).status(),
  ).toBe(201);
  await postEvents(request, pod.id, taskInReview("gate").slice(1));
  await signIn(context, await createPerson(request, pod.id, "approver"));
  await page.goto(`/pods/${pod.id}?tab=inbox`);
  const item = page.getByTestId("inbox-item").filter({ hasText: "Approve task gate" });
  await expect(item.getByRole("button", { name: "Approve", exact: true })).toBeDisabled();
  await expect(item.getByTestId("approve-blocked")).toContainText("test failed");
  await page.getByRole("tab", { name: "board" }).click();
  await expect(page.locator('[data-task="gate"]')).toContainText("gates failed: test");
  // The evidence view opens the proof itself: its gates table shows which one failed.
  await page.getByRole("tab", { name: "evidence" }).click();
  await page.getByRole("row").filter({ hasText: "wc-gate" }).click();
  await expect(
    page.getByTestId("proof-details").getByRole("row").filter({ hasText: "test" }).first(),
  ).toContainText("failed");
  await expect(page.getByTestId("proof-details")).toContainText("src/api/auth.ts");
  // And the overview flags the pod as waiting for a human.
  await page.goto("/pods");
  await expect(
    page.getByTestId("pod-row").filter({ hasText: pod.name }).getByTestId("pod-inbox-count"),
  ).toHaveText("1 waiting");
});

test("tape filters, deep links and time travel", async ({ page, context, request }) => {
  const pod = await createPod(request);
  await postEvents(request, pod.id, [...team(), ...taskInReview("tt")]);
  await postEvents(
    request,
    pod.id,
    Array.from({ length: 40 }, (_, i) =>
      ev("note", i % 2 ? "impl" : "rev", { kind: "STATUS", text: `status number ${i}` }),
    ),
  );
  await signIn(context, await createPerson(request, pod.id, "viewer"));

  await page.goto(`/pods/${pod.id}?tab=tape`);
  await page.getByLabel("Type").selectOption("review");
  await expect(page.getByTestId("tape-event")).toHaveCount(1);
  await expect(page.getByTestId("tape-event")).toContainText("Review of tt: approve");
  await page.getByRole("button", { name: "Clear" }).click();
  await page.getByLabel("Actor").fill("rev");
  await page.getByLabel("Search text").fill("number 3");
  // rev wrote the even numbers: 30, 32, 34, 36, 38 contain "number 3"; impl's odd ones are filtered out by actor.
  await expect(page.getByTestId("tape-event")).toHaveCount(5);
  await expect(page.getByTestId("tape-event").first()).toContainText("status number 38");
  await page.getByRole("button", { name: "Clear" }).click();

  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toHaveCount(0);

  await page.goto(`/pods/${pod.id}?tab=tape&seq=4`);
  await expect(page.getByTestId("event-details")).toContainText("#4");
  await expect(page.getByTestId("event-details")).toContainText("task.updated");
  await page.keyboard.press("k");
  await expect(page.getByTestId("event-details")).toContainText("#5");
  await expect(page).toHaveURL(/seq=5/);

  await page.goto(`/pods/${pod.id}?tab=board`);
  await expect(page.locator('[data-task="tt"]')).toHaveAttribute("data-status", "in_review");
  const slider = page.getByLabel("Time travel");
  await slider.fill("4"); // after task.updated: in progress
  await expect(page.getByTestId("time-travel-label")).toHaveText("as of #4");
  await expect(page.locator('[data-task="tt"]')).toHaveAttribute("data-status", "in_progress");
  await slider.fill("2"); // before the task existed
  await expect(page.locator('[data-task="tt"]')).toHaveCount(0);
  await page.getByRole("button", { name: "Back to live" }).click();
  await expect(page.locator('[data-task="tt"]')).toHaveAttribute("data-status", "in_review");
});

test("an approver steers the pod: add and split a task, hand off, pause and resume", async ({
  page,
  context,
  request,
}) => {
  const pod = await createPod(request);
  await postEvents(request, pod.id, [
    ...team(),
    ev("pod.scope_agreed", "admin", { scope: "s", successCriteria: ["c"] }),
    ev("pod.started", "admin", {}),
  ]);
  await signIn(context, await createPerson(request, pod.id, "approver"));
  await page.goto(`/pods/${pod.id}?tab=board`);
  await page.getByLabel("New task").fill("Write the migration guide");
  await page.getByRole("button", { name: "Add task" }).click();
  const card = page.getByTestId("task-card").filter({ hasText: "Write the migration guide" });
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: "Split…" }).click();
  await card.getByRole("textbox").fill("Outline\nDraft");
  await card.getByRole("button", { name: "Split into 2" }).click();
  await expect(page.locator('[data-task="task_001.1"]')).toContainText("Outline");
  await expect(page.locator('[data-task="task_001"]')).toHaveAttribute("data-status", "cancelled");

  await page.getByRole("tab", { name: "members" }).click();
  await page.getByLabel("Hand off to").selectOption("rev");
  await page.getByLabel("Reason").fill("Needs review");
  await page.getByRole("button", { name: "Hand off" }).click();
  await expect(page.getByTestId("pod-status")).toContainText("active agent: rev");

  await page.getByRole("button", { name: "Pause pod" }).click();
  await expect(page.getByTestId("pod-status")).toContainText("paused");
  const refused = await request.post(`/api/v1/pods/${pod.id}/events`, {
    headers: adminHeaders,
    data: ev("task.added", "impl", { description: "while paused" }),
  });
  expect((await refused.json()).error.code).toBe("pod_paused");
  await page.getByRole("button", { name: "Resume pod" }).click();
  await expect(page.getByTestId("pod-status")).toContainText("active");
});

test("evidence: the transcript, artifacts verified against their uploaded blobs, and a patch as a diff", async ({
  page,
  context,
  request,
}) => {
  const { createHash } = await import("node:crypto");
  const pod = await createPod(request);
  const patch =
    "--- a/src/retry.ts\n+++ b/src/retry.ts\n@@ -1,2 +1,2 @@\n-const tries = 3;\n+const tries = 5;\n";
  const log = "all 42 tests passed\n";
  const sha = (s: string) => createHash("sha256").update(s).digest("hex");
  const admin = adminHeaders;
  expect(
    (await request.put(`/api/v1/blobs/${sha(patch)}`, { data: Buffer.from(patch), headers: admin })).status(),
  ).toBe(201);
  await postEvents(request, pod.id, [
    ...team(),
    ev("evidence.bundle", "impl", {
      bundleId: "b1",
      commands: [
        { command: "npm test", exit_code: 0, duration_ms: 4200 },
        { command: "npm run lint", exit_code: 1, duration_ms: 800 },
      ],
      artifacts: [
        { path: "changes.patch", sha256: sha(patch), size: patch.length },
        { path: "test.log", sha256: sha(log), size: log.length },
      ],
      env: { commit: "abc1234", tools: { node: "20.20.2" } },
      manifestHash: sha("manifest"),
    }),
  ]);
  await signIn(context, await createPerson(request, pod.id, "viewer"));
  await page.goto(`/pods/${pod.id}?tab=evidence`);
  await page.getByRole("button", { name: "Show transcript and artifacts" }).click();
  const details = page.getByTestId("bundle-details");
  await expect(details.getByRole("row").filter({ hasText: "npm run lint" })).toContainText("1");
  const patchRow = details.getByRole("row").filter({ hasText: "changes.patch" });
  await patchRow.getByRole("button", { name: "Verify" }).click();
  await expect(patchRow.getByTestId("artifact-state")).toHaveText("verified");
  const logRow = details.getByRole("row").filter({ hasText: "test.log" });
  await logRow.getByRole("button", { name: "Verify" }).click();
  await expect(logRow.getByTestId("artifact-state")).toHaveText("not uploaded");
  await patchRow.getByRole("button", { name: "Diff" }).click();
  await expect(page.getByTestId("diff")).toContainText("+const tries = 5;");
});
