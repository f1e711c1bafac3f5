// Site-wide defects a person notices: names drawn one letter per line, a word broken in two, an
// empty pods page that points at a demo its reader cannot see, a refusal said twice, the inbox
// link's spoken name, Answer buttons for someone the server refuses, and a refusal hidden behind
// "something went wrong".
import { randomUUID } from "node:crypto";
import type { Locator } from "@playwright/test";
import {
  test,
  expect,
  adminHeaders,
  adminPost,
  createPod,
  ev,
  postEvents,
  signIn,
  type Person,
} from "./fixtures";
import { newSubscriptionKeys } from "../server/testing/push-service";
import { narrowTextCells } from "./layout-check";

const password = "correct horse battery staple";
const someone = (prefix: string): Person => ({
  email: `${prefix}-${randomUUID().slice(0, 8)}@example.com`,
  password,
});

/** How many lines `word` takes inside `box` (1 when it is not broken). */
const linesOf = (box: Locator, word: string) =>
  box.evaluate((el, w) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const at = n.textContent!.indexOf(w);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(n, at);
      range.setEnd(n, at + w.length);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    }
    return 0;
  }, word);

/** A pod whose one inbox item is an escalation; its question is the pod's own (a site admin sees every pod's). */
async function escalationPod(request: Parameters<typeof createPod>[0]) {
  const pod = await createPod(request);
  const question = `Ship ${pod.name} on Friday?`;
  await postEvents(request, pod.id, [
    ev("member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "Implementer" }),
    ev("escalation", "impl", {
      escalationId: "q-ship",
      kind: "risk_tolerance",
      question,
      options: ["Yes", "Wait"],
    }),
  ]);
  return { ...pod, question };
}

test("people and account: names, emails and words keep their width on a phone and on a desktop", async ({
  browser,
  request,
}) => {
  const admin = someone("a-site-administrator-with-a-long-address");
  await adminPost(request, "/api/v1/users", {
    ...admin,
    name: "Maximiliana Wolkenstein-Oberhausen",
    isAdmin: true,
  });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await signIn(phone, admin);
  const page = await phone.newPage();
  await page.goto("/people");
  const row = page.getByTestId("person").filter({ hasText: admin.email });
  await expect(row).toBeVisible();
  expect(await narrowTextCells(page)).toEqual([]);
  expect(await linesOf(row, "Wolkenstein-Oberhausen")).toBe(1);
  await phone.close();

  const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await signIn(desktop, admin);
  const account = await desktop.newPage();
  await account.goto("/account");
  const signedInAs = account.getByText(/^Signed in as/);
  await expect(signedInAs).toContainText("site administrator");
  expect(await linesOf(signedInAs, "administrator")).toBe(1);
  await desktop.close();
});

test("a person in no pod is told what they can do, not to start with a demo they cannot see", async ({
  context,
  page,
  request,
}) => {
  const person = someone("invitee");
  await adminPost(request, "/api/v1/users", { ...person, name: "Invitee" });
  await signIn(context, person);
  await page.goto("/pods");
  const empty = page.getByText("No pods yet").locator("..");
  await expect(empty).toContainText("Ask a pod's lead to add you");
  await expect(empty).not.toContainText("demo");
});

test("adding someone without an account says so once, with the way forward", async ({
  context,
  page,
  request,
}) => {
  const pod = await createPod(request);
  const admin = someone("site-admin");
  await adminPost(request, "/api/v1/users", { ...admin, name: "Site admin", isAdmin: true });
  await signIn(context, admin);
  await page.goto(`/pods/${pod.id}?tab=members&section=people`);
  const people = page.getByTestId("people-panel");
  const add = people.getByRole("form", { name: "Add a person" });
  await add.getByLabel("Email").fill(`nobody-${randomUUID().slice(0, 6)}@example.com`);
  await add.getByRole("button", { name: "Add person" }).click();
  const alert = people.getByRole("alert");
  await expect(alert).toContainText("No account uses");
  await expect(people.getByRole("link", { name: "Invite them first" })).toBeVisible();
  expect(((await alert.innerText()).match(/invite them/gi) ?? []).length).toBe(1);
});

test("the inbox link says how many wait, as one phrase", async ({ context, page, request }) => {
  const pod = await escalationPod(request);
  const approver = someone("approver");
  await adminPost(request, "/api/v1/users", { ...approver, name: "Approver" });
  await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
    memberId: approver.email,
    kind: "human",
    displayName: "Approver",
    roles: ["approver"],
  });
  await signIn(context, approver);
  await page.goto("/");
  await expect(
    page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Inbox, 1 waiting", exact: true }),
  ).toBeVisible();
});

test("a site admin who is no member of the pod sees no Answer controls for an escalation", async ({
  context,
  page,
  request,
}) => {
  const pod = await escalationPod(request);
  const admin = someone("outside-admin");
  await adminPost(request, "/api/v1/users", { ...admin, name: "Outside admin", isAdmin: true });
  await signIn(context, admin);
  for (const path of ["/inbox", `/pods/${pod.id}?tab=inbox`]) {
    await page.goto(path);
    const card = page.getByTestId("inbox-item").filter({ hasText: pod.question });
    await expect(card).toBeVisible();
    await expect(card.getByTestId("answer-not-yours")).toContainText("a human approver of this pod");
    await expect(card.getByRole("button", { name: "Answer" })).toHaveCount(0);
    await expect(card.getByRole("button", { name: "Yes" })).toHaveCount(0);
  }
});

test("a refused action shows the server's own reason", async ({ context, page, request }) => {
  const pod = await escalationPod(request);
  const admin = someone("member-admin");
  await adminPost(request, "/api/v1/users", { ...admin, name: "Member admin", isAdmin: true });
  await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
    memberId: admin.email,
    kind: "human",
    displayName: "Member admin",
    roles: ["approver"],
  });
  await signIn(context, admin);
  await page.goto(`/pods/${pod.id}?tab=inbox`);
  const card = page.getByTestId("inbox-item").filter({ hasText: pod.question });
  await expect(card.getByRole("button", { name: "Yes" })).toBeVisible({ timeout: 30_000 });
  // While the page is open their access in the pod drops to viewer: as a site admin they pass
  // the door, and the pod's rule (escalations are answered by its human approvers) refuses.
  const res = await request.patch(`/api/v1/pods/${pod.id}/members/${encodeURIComponent(admin.email)}`, {
    data: { access: "viewer" },
    headers: adminHeaders,
  });
  expect(res.status(), await res.text()).toBe(200);
  await card.getByRole("button", { name: "Yes" }).click();
  await expect(card.getByRole("alert")).toHaveText(
    /escalations are answered by a human approver of this pod/,
  );
});

test("removing a push device asks first, the house's one way", async ({
  context,
  page,
  request,
  baseURL,
}) => {
  const person = someone("device-owner");
  await adminPost(request, "/api/v1/users", { ...person, name: "Device owner" });
  await signIn(context, person);
  const keys = newSubscriptionKeys();
  const added = await context.request.post("/api/v1/me/push/devices", {
    headers: { origin: baseURL!, "content-type": "application/json" },
    data: {
      endpoint: "http://127.0.0.1:9/push/site-defects",
      keys: { p256dh: keys.p256dh, auth: keys.authB64 },
      label: "Old tablet",
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  await page.goto("/notifications");
  const devices = page.getByTestId("push-devices");
  const remove = devices.getByRole("button", { name: "Remove Old tablet" });
  await remove.click();
  const asking = devices.getByRole("group", { name: "Confirm removing Old tablet" });
  await expect(asking).toContainText("Remove Old tablet?");
  await expect(asking.getByRole("button", { name: "Yes, remove" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(remove).toBeFocused();
  await expect(devices).toContainText("Old tablet");
  await remove.click();
  await asking.getByRole("button", { name: "Yes, remove" }).click();
  await expect(page.getByText("No device receives push yet.")).toBeVisible();
});

test("deleting a webhook asks the house's one way: Cancel gives the focus back", async ({
  context,
  page,
  request,
}) => {
  const pod = await createPod(request);
  const admin = someone("hook-admin");
  await adminPost(request, "/api/v1/users", { ...admin, name: "Hook admin", isAdmin: true });
  await adminPost(request, `/api/v1/pods/${pod.id}/webhooks`, {
    url: "http://127.0.0.1:9/hook",
    events: ["inbox.opened"],
  });
  await signIn(context, admin);
  await page.goto(`/pods/${pod.id}?tab=members&section=webhooks`);
  const del = page.getByRole("button", { name: "Delete the webhook to http://127.0.0.1:9/hook" });
  await del.click();
  const asking = page.getByRole("group", { name: /^Confirm delet/ });
  await expect(asking.getByRole("button", { name: "Yes, delete" })).toBeFocused();
  await asking.getByRole("button", { name: "Cancel" }).click();
  await expect(del).toBeFocused();
});
