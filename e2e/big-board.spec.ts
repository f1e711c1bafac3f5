// The board of a big pod: a 3,000-task plan in ten milestones, 20 tasks blocked deep in it, six
// waiting for a decision, work in progress and done. What a person needs first is at the top, any
// task is one search away, and the page stays a few screens tall however big the plan.
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { adminPost, createPerson, createPod, ev, expect, postEvents, signIn, test } from "./fixtures";

const TASKS = 3_000;
const BLOCKED = 20;
const WAITING = 6;
const DONE = 200;
const WORKING = 40;
const taskId = (i: number) => `t-${String(i).padStart(4, "0")}`;
const AREAS = ["billing", "search", "accounts", "reports"];
/** Deep in the plan, far past any first page of a column. */
const blockedIds = Array.from({ length: BLOCKED }, (_, k) => taskId(TASKS - 1 - k * 97));
const IMPLEMENTERS = ["impl-1", "impl-2", "impl-3"];
const impl = (i: number) => IMPLEMENTERS[i % IMPLEMENTERS.length]!;
/** Tasks 0…245 were started (done, waiting or in progress), each by impl-(i mod 3 + 1). */
const STARTED = DONE + WAITING + WORKING;
const startedBy = (name: string, from = 0) =>
  Array.from({ length: STARTED - from }, (_, i) => impl(from + i)).filter((n) => n === name).length;
const PENDING = TASKS - STARTED - BLOCKED;

async function seedBigPod(request: APIRequestContext) {
  const pod = await createPod(request);
  await postEvents(request, pod.id, [
    ...[...IMPLEMENTERS, "rev", "chair"].map((memberId) =>
      ev("member.joined", "admin", { memberId, kind: "agent", displayName: memberId }),
    ),
    ev("role.assigned", "admin", { memberId: "chair", role: "chair" }),
  ]);
  for (let n = 0; n < TASKS; n += 500) {
    const tasks = Array.from({ length: 500 }, (_, k) => ({
      task_id: taskId(n + k),
      description: `Step ${n + k} of the migration: move the ${AREAS[(n + k) % 4]} module onto the new storage layer`,
      status: "pending",
      metadata: { milestone: `M${Math.floor((n + k) / 300) + 1}`, area: AREAS[(n + k) % 4] },
    }));
    await postEvents(request, pod.id, [ev("plan.imported", "chair", { plan: { tasks } })]);
  }
  const start = (i: number) => ev("task.updated", impl(i), { taskId: taskId(i), status: "in_progress" });
  const review = (i: number) => [
    start(i),
    ev("task.review_requested", impl(i), { taskId: taskId(i) }),
    ev("review", "rev", { taskId: taskId(i), verdict: "approve", comments: "Read and ran it" }),
  ];
  const events = [
    ...Array.from({ length: DONE }, (_, i) => [
      ...review(i),
      ev("decision", "chair", {
        subject: { kind: "task", id: taskId(i) },
        verdict: "approve",
        rationale: "ok",
      }),
    ]).flat(),
    ...Array.from({ length: WAITING }, (_, i) => review(DONE + i)).flat(),
    ...Array.from({ length: WORKING }, (_, i) => start(DONE + WAITING + i)),
    ...blockedIds.map((id) =>
      ev("task.updated", "impl-1", {
        taskId: id,
        status: "blocked",
        blockedReason: "the staging database is down",
      }),
    ),
  ];
  await postEvents(request, pod.id, events);
  return pod;
}

const group = (page: Page, title: string) =>
  page.locator(`[data-testid="board-column"][data-column="${title}"]`);
const cards = (page: Page) => page.getByTestId("task-card");
const height = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("the empty board says how a plan arrives in plain words; a share-link viewer is told only that it is empty", async ({
  browser,
  request,
}) => {
  const pod = await createPod(request);
  const approver = await createPerson(request, pod.id, "approver");
  const link = (await adminPost(request, `/api/v1/pods/${pod.id}/share-links`, { expiresInHours: 1 })) as {
    url: string;
  };
  for (const who of ["approver", "share link"] as const) {
    const context = await browser.newContext();
    if (who === "approver") await signIn(context, approver);
    const page = await context.newPage();
    await page.goto(who === "approver" ? `/pods/${pod.id}?tab=board` : new URL(link.url).pathname);
    const panel = page.getByRole("tabpanel");
    await expect(panel).toContainText("No tasks yet");
    // No event names, no API paths: words a person reads.
    await expect(panel).not.toContainText("plan.imported");
    await expect(panel).not.toContainText("task.added");
    await expect(panel).not.toContainText("/api/");
    const empty = page.getByTestId("board-empty");
    if (who === "approver") await expect(empty).toContainText("Add a task above");
    else {
      await expect(empty).toHaveText("No tasks yet: the plan is empty.");
      await expect(page.getByLabel("Search tasks")).toHaveCount(0);
    }
    await context.close();
  }
});

test("a 3,000-task board: blocked and waiting tasks on top, any task found, filters, grouping and collapse in a page a few screens tall", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const pod = await seedBigPod(request);
  const viewer = await createPerson(request, pod.id, "viewer");
  for (const colorScheme of ["light", "dark"] as const)
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ colorScheme, viewport: { width, height: 844 } });
      await signIn(context, viewer);
      const page = await context.newPage();
      await page.goto(`/pods/${pod.id}?tab=board`);
      const what = `${width} px, ${colorScheme}`;
      // The blocked tasks, all 20 though they sit at the end of the plan, and those waiting for a decision, come first.
      await expect(group(page, "Blocked").getByTestId("task-card")).toHaveCount(BLOCKED, { timeout: 30_000 });
      await expect(group(page, "Waiting for a decision").getByTestId("task-card")).toHaveCount(WAITING);
      const order = await cards(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-status")));
      expect(
        order.slice(0, BLOCKED + WAITING).filter((s) => s === "blocked"),
        what,
      ).toHaveLength(BLOCKED);
      expect(order.slice(BLOCKED, BLOCKED + WAITING), what).toEqual(Array(WAITING).fill("in_review"));
      await expect(group(page, "Blocked")).toContainText("the staging database is down");
      // Each group says how many it holds; the page renders pages of cards, not 3,000 of them.
      await expect(group(page, "To do").getByRole("button", { name: /^To do/ })).toContainText(
        PENDING.toLocaleString("en"),
      );
      expect(order.length, what).toBeLessThan(120);
      const tall = await height(page);
      console.log(`big board, ${what}: ${order.length} cards, ${tall} px tall`);
      expect(tall, what).toBeLessThan(width === 390 ? 16_000 : 6_000);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), what).toBeLessThanOrEqual(
        width,
      );
      expect.soft(await seriousViolations(page), what).toEqual([]);
      await context.close();
    }

  for (const width of [1280, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 844 } });
    await signIn(context, viewer);
    const page = await context.newPage();
    await page.goto(`/pods/${pod.id}?tab=board`);
    await expect(group(page, "Blocked").getByTestId("task-card")).toHaveCount(BLOCKED, { timeout: 30_000 });
    const search = page.getByLabel("Search tasks");

    // Search by id finds a task deep in the plan, and the search is in the address.
    await search.fill(taskId(2_718));
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page)).toHaveAttribute("data-task", taskId(2_718));
    await expect(page.getByTestId("board-summary")).toHaveText("1 of 3,000 tasks");
    await expect(page).toHaveURL(new RegExp(`[?&]q=${taskId(2_718)}`));
    // By words of its title, and by who implements it.
    await search.fill("step 2999 ");
    await expect(cards(page)).toHaveCount(1);
    await search.fill("impl-3");
    await expect(group(page, "In progress").getByRole("button", { name: /^In progress/ })).toContainText(
      String(startedBy("impl-3", DONE + WAITING)),
    );
    await expect(cards(page).filter({ hasNotText: "impl-3" })).toHaveCount(0);
    // The address keeps what was asked: a reload shows the same board.
    await page.reload();
    await expect(page.getByLabel("Search tasks")).toHaveValue("impl-3");
    await expect(cards(page).filter({ hasNotText: "impl-3" })).toHaveCount(0);
    await page.getByLabel("Search tasks").fill("");
    await expect(page).not.toHaveURL(/[?&]q=/);

    // Filters by state and assignee.
    await page.getByLabel("State").selectOption({ label: "Blocked" });
    await expect(cards(page)).toHaveCount(BLOCKED);
    await page.getByLabel("State").selectOption({ label: "Any state" });
    await page.getByLabel("Assignee").selectOption("impl-2");
    await expect(page.getByTestId("board-summary")).toHaveText(`${startedBy("impl-2")} of 3,000 tasks`);
    await expect(cards(page).filter({ hasNotText: "impl-2" })).toHaveCount(0);
    await page.getByLabel("Assignee").selectOption({ label: "Anyone" });

    // Collapse a group, and show more of one.
    const todo = group(page, "To do");
    const toggle = todo.getByRole("button", { name: /^To do/ });
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const before = await todo.getByTestId("task-card").count();
    await todo.getByRole("button", { name: /^Show \d+ more/ }).click();
    await expect(todo.getByTestId("task-card")).toHaveCount(before * 2);
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(todo.getByTestId("task-card")).toHaveCount(0);
    await toggle.click();
    await expect(todo.getByTestId("task-card")).not.toHaveCount(0);

    // Grouping by milestone (a field the plan carries) and by assignee, each group with its count.
    await page.getByLabel("Group by").selectOption({ label: "milestone" });
    await expect(group(page, "M10").getByRole("button", { name: /^M10/ })).toContainText(
      String(300 - blockedIds.filter((id) => id >= taskId(2_700)).length),
    );
    await expect(group(page, "Blocked").getByTestId("task-card")).toHaveCount(BLOCKED);
    await page.getByLabel("Group by").selectOption({ label: "Assignee" });
    await expect(group(page, "Unassigned").getByRole("button", { name: /^Unassigned/ })).toContainText(
      PENDING.toLocaleString("en"),
    );
    await expect(group(page, "impl-1")).toBeVisible();
    expect(await height(page)).toBeLessThan(width === 390 ? 16_000 : 6_000);
    await context.close();
  }
});

test("a link to a task deep in a big plan shows its card, past the first page of its column; search from the keyboard", async ({
  context,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const pod = await seedBigPod(request);
  await signIn(context, await createPerson(request, pod.id, "viewer"));
  await page.goto(`/pods/${pod.id}?tab=board&task=${taskId(2_500)}`);
  const linked = page.locator(`[data-task="${taskId(2_500)}"]`);
  await expect(linked).toHaveAttribute("data-linked", "true", { timeout: 30_000 });
  await expect(linked).toBeInViewport();
  // From the keyboard: "/" goes to the search box, Escape clears it.
  await page.locator("body").press("/");
  await expect(page.getByLabel("Search tasks")).toBeFocused();
  await page.keyboard.type(taskId(1_234));
  await expect(page.getByTestId("task-card")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(page.getByLabel("Search tasks")).toHaveValue("");
  await expect(page.getByTestId("board-summary")).toHaveText("3,000 tasks");
});
