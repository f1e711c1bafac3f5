// The Members tab, sharing and a forming pod, as a pod admin and a share link's onlooker see them:
// one section at a time (kept in the URL), each member listed once, a compact token panel, a share
// link's expiry in the future tense, questions before removing or revoking, a forming pod with one
// Start button and tabs that fit its mode; an onlooker sees no emails, and is told when the link
// is revoked. Desktop and 390 px, light and dark, axe clean.
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import {
  adminHeaders,
  adminPost,
  createPerson,
  createPod,
  ev,
  expect,
  postEvents,
  signIn,
  test,
  type Person,
} from "./fixtures";

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

async function adminPage(browser: Browser, admin: Person, colorScheme: "light" | "dark", width = 1280) {
  const context = await browser.newContext({ colorScheme, viewport: { width, height: 800 } });
  await signIn(context, admin);
  return { context, page: await context.newPage() };
}

// Each test looks in several browsers (light, dark, 390 px) with axe: more than the default minute on a busy machine.
test.describe.configure({ timeout: 180_000 });

const members = (page: Page) => page.getByRole("tablist", { name: "Members sections" });

for (const colorScheme of ["light", "dark"] as const) {
  test(`members: one section at a time, in the URL, each member once (${colorScheme})`, async ({
    browser,
    request,
  }) => {
    const pod = await createPod(request);
    const admin = await createPerson(request, pod.id, "admin");
    const viewer = await createPerson(request, pod.id, "viewer");
    await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
      memberId: "impl-1",
      kind: "agent",
      displayName: "Implementer",
      roles: ["implementer"],
    });
    const { context, page } = await adminPage(browser, admin, colorScheme);
    await page.goto(`/pods/${pod.id}?tab=members`);
    const nav = members(page);
    // The tab's code loads when first opened.
    await expect(nav.getByRole("tab", { name: "Agents" })).toBeVisible({ timeout: 30_000 });
    for (const name of ["People", "Sharing", "Tool policies", "Budgets", "Webhooks"])
      await expect(nav.getByRole("tab", { name })).toBeVisible();
    await expect(nav.getByRole("tab", { name: "Agents", selected: true })).toBeVisible();

    // The keyboard moves between sections; the URL keeps the one open, so a reload (or a link) opens it.
    await nav.getByRole("tab", { name: "Agents" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(nav.getByRole("tab", { name: "People", selected: true })).toBeFocused();
    await expect(page).toHaveURL(/section=people/);
    await page.reload();
    await expect(members(page).getByRole("tab", { name: "People", selected: true })).toBeVisible();
    const section = page.getByRole("tabpanel", { name: "People" });
    // Each person once, with their access; no second list of the same people beside it.
    await expect(section.getByText(admin.email, { exact: true })).toHaveCount(1);
    await expect(page.getByRole("main").getByText(admin.email, { exact: true })).toHaveCount(1);
    await expect(section.getByText(viewer.email, { exact: true })).toHaveCount(1);
    await expect(page.getByTestId("members")).toHaveCount(0);
    // Agents are in their own section, not here.
    await expect(section.getByText("impl-1")).toHaveCount(0);

    // Removing a person asks first, in the page (never the browser's confirm).
    const dialogs: string[] = [];
    page.on("dialog", (d) => (dialogs.push(d.message()), void d.dismiss()));
    await section.getByRole("button", { name: `Remove ${viewer.email}` }).click();
    const asking = section.getByRole("group", { name: `Confirm removing ${viewer.email}` });
    await expect(asking).toContainText("no longer see");
    await asking.getByRole("button", { name: "Cancel" }).click();
    await expect(section.getByText(viewer.email, { exact: true })).toHaveCount(1);
    await section.getByRole("button", { name: `Remove ${viewer.email}` }).click();
    await section.getByRole("button", { name: "Yes, remove" }).click();
    await expect(section.getByText(viewer.email, { exact: true })).toHaveCount(0);
    expect(dialogs).toEqual([]);

    // Agents: hand off and role rotation each say what they do.
    await nav.getByRole("tab", { name: "Agents" }).click();
    await expect(page).toHaveURL(/section=agents/);
    const agents = page.getByRole("tabpanel", { name: "Agents" });
    await expect(agents.getByTestId("agent").filter({ hasText: "impl-1" })).toHaveCount(1);
    await expect(agents.getByText(/Hand off gives the work/)).toBeVisible();
    await expect(agents.getByText(/Rotating moves a role/)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(nav.getByRole("tab", { name: "Agents", selected: true })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
}

test("a new agent's token panel is compact: a tab per way to connect, what one pastes, copy buttons", async ({
  browser,
  request,
}) => {
  const pod = await createPod(request);
  const admin = await createPerson(request, pod.id, "admin");
  for (const [colorScheme, width] of [
    ["light", 1280],
    ["dark", 390],
  ] as const) {
    const { context, page } = await adminPage(browser, admin, colorScheme, width);
    await page.goto(`/pods/${pod.id}?tab=members&section=agents`);
    const form = page.getByRole("form", { name: "Add agent" });
    await form.getByLabel("Agent id").fill(`agent-${colorScheme}`);
    await form.getByLabel("Display name").fill(`Agent ${colorScheme}`);
    await form.getByRole("button", { name: "Add agent and create its token" }).click();
    const panel = page.getByTestId("token-snippets");
    await expect(
      panel.getByRole("heading", { name: `Agent ${colorScheme} added: its first token` }),
    ).toBeFocused();
    const ways = panel.getByRole("tablist", { name: "How the agent connects" });
    await expect(ways.getByRole("tab", { selected: true })).toHaveCount(1);
    await expect(panel.getByRole("button", { name: "Copy token" })).toBeVisible();
    // Claude Code's hooks: the lines one pastes; the whole settings file only behind a disclosure.
    await ways.getByRole("tab", { name: /Claude Code \(HTTP hooks\)/ }).click();
    await expect(panel.getByTestId("snippet-claude-http")).toBeHidden();
    const box = await panel.boundingBox();
    expect(box!.height, "the token panel's height").toBeLessThan(width === 390 ? 2200 : 1400);
    await panel
      .getByRole("tabpanel")
      .getByText(/Show the whole file/)
      .click();
    await expect(panel.getByTestId("snippet-claude-http")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  }
});

test("a forming collaboration pod: one Start button, an honest waiting line, tabs that fit its mode", async ({
  browser,
  request,
}) => {
  const pod = await createPod(request);
  const admin = await createPerson(request, pod.id, "admin");
  await postEvents(request, pod.id, [
    ev("pod.scope_agreed", "admin", { scope: "Split the payments module", successCriteria: ["Tests pass"] }),
  ]);
  for (const colorScheme of ["light", "dark"] as const) {
    const { context, page } = await adminPage(browser, admin, colorScheme);
    await page.goto(`/pods/${pod.id}?tab=setup`);
    await expect(page.getByTestId("setup-checklist")).toBeVisible();
    await expect(page.getByRole("button", { name: "Start pod" })).toHaveCount(1);
    // Agents and people are optional: the status line does not wait for them.
    const notice = page.getByTestId("forming-notice");
    await expect(notice).toBeVisible();
    await expect(notice).not.toContainText("agents");
    await expect(notice).not.toContainText("people");
    const tabs = page.getByRole("tablist", { name: "Pod views" });
    await expect(tabs.getByRole("tab", { name: "setup" })).toBeVisible();
    await expect(tabs.getByRole("tab", { name: "job" })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole("button", { name: "Start pod" })).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  }
});

test("a 7-day share link expires in 7 days, the checklist ticks it, and revoking asks first", async ({
  browser,
  request,
}) => {
  const pod = await createPod(request);
  const admin = await createPerson(request, pod.id, "admin");
  const { context, page } = await adminPage(browser, admin, "dark", 390);
  await page.goto(`/pods/${pod.id}?tab=setup`);
  await expect(page.getByTestId("setup-share-link")).toHaveAttribute("data-done", "false");

  await page.goto(`/pods/${pod.id}?tab=members&section=sharing`);
  const sharing = page.locator("#sharing");
  await sharing.getByLabel("Label").fill("for the client");
  await sharing.getByLabel("Expires").selectOption("168");
  await sharing.getByRole("button", { name: "Create share link" }).click();
  await expect(sharing.getByTestId("share-link-created")).toBeVisible();
  const row = sharing.getByTestId("share-link-row");
  await expect(row).toContainText(/expires in (7d|6d|167h|168h)/);
  await expect(row).not.toContainText("just now ago");
  await expect(row).not.toContainText("expires just now");

  await page.goto(`/pods/${pod.id}?tab=setup`);
  await expect(page.getByTestId("setup-share-link")).toHaveAttribute("data-done", "true");

  await page.goto(`/pods/${pod.id}?tab=members&section=sharing`);
  const dialogs: string[] = [];
  page.on("dialog", (d) => (dialogs.push(d.message()), void d.dismiss()));
  await sharing.getByRole("button", { name: "Revoke for the client" }).click();
  const asking = sharing.getByRole("group", { name: "Confirm revoking for the client" });
  await expect(asking).toContainText("can no longer watch");
  await expect(row).not.toContainText("revoked");
  await asking.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(row).toContainText("revoked");
  expect(dialogs).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
  await context.close();
});

test("a share link's onlooker sees no emails (the tape's too, live), no setup and no notify button, and is told when it is revoked", async ({
  browser,
  request,
}) => {
  const pod = await createPod(request);
  const person = await createPerson(request, pod.id, "approver");
  const other = await createPerson(request, pod.id, "viewer");
  // People write on the tape by their member id, their email; the admin token speaks as them.
  await postEvents(request, pod.id, [
    ev("note", person.email, { kind: "STATUS", text: `over to ${other.email}` }),
  ]);
  const noEmail = async (page: Page) => {
    for (const email of [person.email, other.email]) await expect(page.getByText(email)).toHaveCount(0);
    expect(await page.content()).not.toMatch(/[\w.+-]+@example\.com/);
  };
  const link = (await adminPost(request, `/api/v1/pods/${pod.id}/share-links`, { expiresInHours: 1 })) as {
    url: string;
    id: string;
  };
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await page.goto(new URL(link.url).pathname);
    await expect(page).toHaveURL(new RegExp(`/pods/${pod.id}$`));
    await expect(page.getByText("Watching through a share link")).toBeVisible();
    const tabs = page.getByRole("tablist", { name: "Pod views" });
    await expect(tabs.getByRole("tab", { name: "board" })).toBeVisible();
    await expect(tabs.getByRole("tab", { name: "setup" })).toHaveCount(0);
    await expect(tabs.getByRole("tab", { name: "members" })).toHaveCount(0);
    await expect(page.getByText(person.email)).toHaveCount(0);
    await expect(page.getByText("Notify me")).toHaveCount(0);
    // The server's read carries no email either.
    const state = await context.request.get(`/api/v1/pods/${pod.id}/state`);
    expect(state.status()).toBe(200);
    expect(await state.text()).not.toContain(person.email);
    expect(await seriousViolations(page)).toEqual([]);
    // The Tape tab names them too: the person's note, by name, with the other's name in it.
    await tabs.getByRole("tab", { name: "tape" }).click();
    await expect(page.getByTestId("connection-state")).toHaveAttribute("data-state", "live");
    const note = page.getByTestId("tape-event").filter({ hasText: "over to An viewer" });
    await expect(note).toContainText("An approver");
    await noEmail(page);
    if (colorScheme === "dark") {
      // A live frame as well.
      await postEvents(request, pod.id, [
        ev("note", person.email, { kind: "STATUS", text: `ask ${other.email}` }),
      ]);
      await expect(page.getByTestId("tape-event").filter({ hasText: "ask An viewer" })).toContainText(
        "An approver",
      );
      await noEmail(page);
      const revoke = await request.delete(`/api/v1/pods/${pod.id}/share-links/${link.id}`, {
        headers: adminHeaders,
      });
      expect(revoke.status()).toBe(200);
      const ended = page.getByTestId("access-ended");
      await expect(ended).toHaveText(/share link was revoked or has expired/);
      await expect(ended).toHaveAttribute("role", "alert");
      await expect(page.getByText("Reconnecting…")).toHaveCount(0);
    }
    await context.close();
  }
});
