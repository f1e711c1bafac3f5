import { readFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
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
  type Person,
} from "./fixtures";

/** A pod where a task has been reviewed and waits for a human decision. */
async function podAwaitingDecision(request: Parameters<typeof createPod>[0]) {
  const pod = await createPod(request);
  await postEvents(request, pod.id, [
    ev("member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "Implementer" }),
    ev("member.joined", "admin", { memberId: "rev", kind: "agent", displayName: "Reviewer" }),
    ev("task.added", "impl", { taskId: "t1", description: "Ship the login endpoint" }),
    ev("task.updated", "impl", { taskId: "t1", status: "in_progress" }),
    ev("task.review_requested", "impl", { taskId: "t1" }),
    ev("review", "rev", { taskId: "t1", verdict: "approve", comments: "verified from scratch" }),
  ]);
  return pod;
}

async function fillSignIn(page: import("@playwright/test").Page, person: Person) {
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("an approver signs in and decides; the decision lands on the tape as them", async ({
  page,
  request,
}) => {
  const pod = await podAwaitingDecision(request);
  const approver = await createPerson(request, pod.id, "approver");
  await page.goto(`/pods/${pod.id}?tab=inbox`);
  await expect(page).toHaveURL(/\/sign-in/);
  await fillSignIn(page, { ...approver, password: "wrong password!!" });
  await expect(page.getByRole("alert").filter({ hasText: "do not match" })).toBeVisible();
  await fillSignIn(page, approver);
  await expect(page).toHaveURL(new RegExp(`/pods/${pod.id}\\?tab=inbox$`));
  const item = page.getByTestId("inbox-item").filter({ hasText: "Approve task t1" });
  await item.getByLabel("Rationale").fill("Tests pass; reviewed.");
  await item.getByLabel("Tie-breaker").selectOption("text_spec");
  await item.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByTestId("inbox-item")).toHaveCount(0);
  await page.getByRole("tab", { name: "tape" }).click();
  await expect(
    page.getByText("Decision on task t1: approve (text_spec) — Tests pass; reviewed."),
  ).toBeVisible();
  const tape = page.getByTestId("tape-event").filter({ hasText: "Decision on task t1" });
  await expect(tape).toContainText(approver.email);
});

test("a viewer sees no controls, and a forged server-action call is refused", async ({
  page,
  context,
  request,
}) => {
  const pod = await podAwaitingDecision(request);
  await signIn(context, await createPerson(request, pod.id, "viewer"));
  await page.goto(`/pods/${pod.id}?tab=inbox`);
  await expect(page.getByTestId("inbox-item")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(page.getByLabel("Rationale")).toHaveCount(0);

  // Server action ids are public (they ship in the client bundle): call `decide` directly.
  const manifest = JSON.parse(
    readFileSync(join(process.cwd(), ".next/server/server-reference-manifest.json"), "utf8"),
  ) as { node: Record<string, { exportedName?: string }> };
  const actionId = Object.entries(manifest.node).find(([, v]) => v.exportedName === "decide")?.[0];
  expect(actionId).toBeTruthy();
  const before = await (await request.get(`/api/v1/pods/${pod.id}`, { headers: adminHeaders })).json();
  const reply = await page.evaluate(
    async ({ actionId, podId }) => {
      const res = await fetch(`/pods/${podId}`, {
        method: "POST",
        headers: {
          "next-action": actionId,
          "content-type": "text/plain;charset=UTF-8",
          accept: "text/x-component",
        },
        body: JSON.stringify([
          { podId, subject: { kind: "task", id: "t1" }, verdict: "approve", rationale: "forged" },
        ]),
      });
      return { status: res.status, text: await res.text() };
    },
    { actionId: actionId!, podId: pod.id },
  );
  expect(reply.text).toContain("this needs approver access to the pod");
  const after = await (await request.get(`/api/v1/pods/${pod.id}`, { headers: adminHeaders })).json();
  expect(after.eventCount).toBe(before.eventCount);
});

test("script or HTML in any event field renders as inert text", async ({ page, context, request }) => {
  const pod = await createPod(request);
  await signIn(context, await createPerson(request, pod.id, "viewer"));
  const xss = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
  await postEvents(request, pod.id, [
    {
      id: randomUUID(),
      type: "checkpoint",
      actor: `agent ${xss}`,
      body: { completed: [xss], next: [`<b>bold?</b>`], blocked: [] },
    },
    { id: randomUUID(), type: "note", actor: "a", body: { kind: "OBSERVATION", text: xss, extra: xss } },
    {
      id: randomUUID(),
      type: "escalation",
      actor: "a",
      body: { kind: "intent", question: xss, options: [xss] },
    },
  ]);
  const dialogs: string[] = [];
  const cspViolations: string[] = [];
  page.on("dialog", (d) => (dialogs.push(d.message()), void d.dismiss()));
  page.on("console", (m) => m.text().includes("Content Security Policy") && cspViolations.push(m.text()));
  await page.goto(`/pods/${pod.id}?tab=tape`);
  await expect(page.getByTestId("tape-event")).toHaveCount(4);
  await expect(page.getByText(xss).first()).toBeVisible();
  await page.getByRole("tab", { name: "inbox" }).click();
  await expect(page.getByTestId("inbox-item").getByText(xss).first()).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await page.locator("main img, main script, main b").count()).toBe(0);
  expect(dialogs).toEqual([]);
  // The app itself runs under its CSP without tripping it.
  expect(cspViolations).toEqual([]);
});

test("a share link lets an onlooker watch one pod without an account, until it is revoked", async ({
  browser,
  request,
}) => {
  const pod = await createPod(request);
  const link = (await adminPost(request, `/api/v1/pods/${pod.id}/share-links`, { expiresInHours: 1 })) as {
    url: string;
    id: string;
    token: string;
  };
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL(link.url).pathname);
  await expect(page).toHaveURL(new RegExp(`/pods/${pod.id}$`));
  await page.getByRole("tab", { name: "tape" }).click();
  await expect(page.getByTestId("connection-state")).toHaveAttribute("data-state", "live");
  await expect(page.getByText("Watching through a share link")).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  const revoke = await request.delete(`/api/v1/pods/${pod.id}/share-links/${link.id}`, {
    headers: adminHeaders,
  });
  expect(revoke.status()).toBe(200);
  await page.reload();
  await expect(page).toHaveURL(/\/sign-in/);
  await context.close();
});
