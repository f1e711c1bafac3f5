import { test, expect, createPerson, signIn, adminHeaders } from "./fixtures";
import { seedRichPod } from "./rich-pod";

const stateOf = async (request: import("@playwright/test").APIRequestContext, podId: string) =>
  (await request.get(`/api/v1/pods/${podId}/state`, { headers: adminHeaders })).json();

test("the inbox shows what backs each decision, with links to the task", async ({
  page,
  context,
  request,
}) => {
  const pod = await seedRichPod(request);
  await signIn(context, await createPerson(request, pod.id, "approver"));
  await page.goto("/inbox");
  await expect(page).toHaveTitle("Inbox (3) · podwatch");

  const task = page.getByTestId("inbox-item").filter({ hasText: "Approve task 42" });
  await expect(task.getByTestId("inbox-review")).toContainText("review by rev: approve");
  await expect(task.getByTestId("inbox-review")).toContainText("Rate limit verified by hand");
  await expect(task.getByTestId("inbox-evidence")).toHaveAttribute("data-passed", "true");
  await expect(task.getByTestId("inbox-evidence")).toContainText("evidence ev-login");
  const proof = task.getByTestId("inbox-proof");
  await expect(proof).toContainText("wc-42-20250115T143022Z");
  await expect(proof.getByTestId("inbox-gate")).toHaveCount(4);
  await expect(proof.locator('[data-gate="test"]')).toHaveAttribute("data-passed", "true");
  await expect(proof.locator('[data-gate="test"]')).toHaveText("test passed");

  const job = page.getByTestId("inbox-item").filter({ hasText: "j-audit" });
  await expect(job.getByTestId("inbox-amount")).toHaveText("€250.00");
  await expect(job).toContainText("on acceptance");
  await expect(job.getByTestId("inbox-acceptance-tests")).toContainText("no high findings open");
  await expect(job.getByTestId("inbox-evidence")).toHaveAttribute("data-passed", "false");

  const esc = page.getByTestId("inbox-item").filter({ hasText: "Deploy the login endpoint on Friday?" });
  await expect(esc.getByTestId("inbox-context")).toContainText("risk tolerance");
  await expect(esc.getByTestId("inbox-context")).toContainText("Yes · Wait for Monday");
  await expect(esc.getByTestId("inbox-evidence")).toContainText("ev-login");

  await task.getByTestId("inbox-task-link").click();
  await expect(page).toHaveURL(new RegExp(`/pods/${pod.id}\\?tab=board&task=42$`));
  await expect(page.locator('[data-task="42"]')).toHaveAttribute("data-linked", "true");
  await expect(page).toHaveTitle(`podwatch · ${pod.name}`);
});

test("keyboard: the first j selects the first item, focus moves on after an action; money asks first", async ({
  page,
  context,
  request,
}) => {
  const pod = await seedRichPod(request);
  await signIn(context, await createPerson(request, pod.id, "approver"));
  await page.goto("/inbox");
  const items = page.getByTestId("inbox-item");
  await expect(items).toHaveCount(3);
  await page.keyboard.press("j");
  await expect(items.first()).toBeFocused();
  await expect(items.first()).toContainText("Approve task 42");
  await page.keyboard.press("a");
  await expect(items).toHaveCount(2);
  // The approved item left; the one that took its place has the focus.
  await expect(items.first()).toContainText("Deploy the login endpoint on Friday?");
  await expect(items.first()).toBeFocused();
  await page.keyboard.press("j");
  const job = items.filter({ hasText: "j-audit" });
  await expect(job).toBeFocused();

  // a on a delivery: a dialog names the money; Escape (or Cancel) appends nothing.
  const before = (await stateOf(request, pod.id)).seq;
  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog", { name: "Accept the delivery and release €250.00?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await job.getByRole("button", { name: "Reject and refund" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  const after = await stateOf(request, pod.id);
  expect(after.seq).toBe(before);
  expect(after.jobs.find((j: { jobId: string }) => j.jobId === "j-audit")).toMatchObject({
    escrow: "funded",
    status: "delivered",
  });

  await job.focus();
  await page.keyboard.press("a");
  await dialog.getByRole("button", { name: "Accept and release" }).click();
  await expect(job).toHaveCount(0);
  await expect(items.first()).toBeFocused();
  expect(
    (await stateOf(request, pod.id)).jobs.find((j: { jobId: string }) => j.jobId === "j-audit"),
  ).toMatchObject({ escrow: "released" });
});

test("pod tabs follow the WAI-ARIA tabs pattern", async ({ page, context, request }) => {
  const pod = await seedRichPod(request);
  await signIn(context, await createPerson(request, pod.id, "viewer"));
  await page.goto(`/pods/${pod.id}?tab=board`);
  const tabs = page.getByRole("tablist", { name: "Pod views" }).getByRole("tab");
  await expect(tabs.first()).toHaveText("board");
  // The job tab comes with the pod's state (it has a job): the list is whole once it is there.
  await expect(page.getByRole("tab", { name: "job" })).toBeVisible();
  const last = (await tabs.last().textContent())!;
  const board = page.getByRole("tab", { name: "board" });
  await expect(board).toHaveAttribute("aria-selected", "true");
  await expect(board).toHaveAttribute("tabindex", "0");
  await expect(page.getByRole("tab", { name: "tape" })).toHaveAttribute("tabindex", "-1");
  const panel = page.getByRole("tabpanel");
  await expect(panel).toHaveAttribute("id", (await board.getAttribute("aria-controls"))!);
  await expect(panel).toHaveAttribute("aria-labelledby", (await board.getAttribute("id"))!);

  await board.focus();
  await page.keyboard.press("ArrowRight");
  const tape = page.getByRole("tab", { name: "tape" });
  await expect(tape).toBeFocused();
  await expect(tape).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/tab=tape/);
  await page.keyboard.press("End");
  await expect(tabs.last()).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`tab=${last}`));
  await page.keyboard.press("Home");
  await expect(board).toBeFocused();
  await page.keyboard.press("ArrowLeft"); // wraps around to the last tab
  await expect(tabs.last()).toHaveAttribute("aria-selected", "true");
  await page.getByRole("tab", { name: "job" }).click();
  await expect(page.getByRole("tabpanel")).toContainText("Security audit");

  // A viewer is told the view is read-only, where approvers see controls.
  await expect(page.getByTestId("read-only-notice")).toContainText("Read-only: you can watch this pod");

  // At phone width the tab bar scrolls, and shows it.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.keyboard.press("Home");
  await expect(page.getByTestId("tabs-fade-right")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
