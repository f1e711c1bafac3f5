// "Now", the control room's home, in Chromium against the real server: Claude Code's and Codex's
// sessions, reported by posting their own recorded hook JSON to their hook doors with each agent's
// token, appear live as Working; a git push the pod's rule holds for a person moves Claude Code's
// session to Needs you with the held call's card, answered there so the hook's request returns
// allow, and the session works again; a message sent from its row reaches its next hook; Codex's
// Stop makes it idle. Filters (by program and by the person who connected the agent) live in the URL, j/Enter open a session's pod. At 1280 and 390 px, light and dark: axe clean, one column, no sideways scroll.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  test,
  expect,
  createPod,
  createPerson,
  adminPost,
  adminHeaders,
  postEvents,
  ev,
  signIn,
} from "./fixtures";

const fixture = (...path: string[]) =>
  JSON.parse(readFileSync(join(process.cwd(), "server", "hooks", "fixtures", ...path), "utf8")) as Record<
    string,
    unknown
  >;
const claude = (name: string) => fixture(`${name}.json`);
const codex = (name: string) => ({ ...fixture("codex", `${name}.json`), transcript_path: null });

async function agentToken(request: APIRequestContext, podId: string, memberId: string, displayName: string) {
  await adminPost(request, `/api/v1/pods/${podId}/members`, {
    memberId,
    kind: "agent",
    displayName,
    roles: ["implementer"],
  });
  return (await adminPost(request, `/api/v1/pods/${podId}/members/${memberId}/tokens`, { label: "now e2e" }))
    .token as string;
}

/** A pod whose policy holds Bash `git push*` for a person, with a Claude Code and a Codex agent, and its admin. */
async function seed(request: APIRequestContext) {
  const pod = await createPod(request);
  const tokens = {
    claude: await agentToken(request, pod.id, "claude", "Claude Code agent"),
    codex: await agentToken(request, pod.id, "codex", "Codex agent"),
  };
  const rules = [{ id: "push", tool: "Bash", input: "git push*", action: "ask" }];
  // Ten minutes to answer, and the hook holds five: a slow machine's page loads stay inside the hold.
  const ask = { minutes: 10, then: "deny" };
  await postEvents(request, pod.id, [ev("agent.policy.set", "ops-admin", { rules, ask })]);
  const person = await createPerson(request, pod.id, "admin");
  const hook = (door: "claude-code" | "codex", body: object, wait = false) =>
    request.post(`/api/v1/hooks/${door}${wait ? "?wait=300" : ""}`, {
      data: body,
      headers: { authorization: `Bearer ${door === "codex" ? tokens.codex : tokens.claude}` },
      timeout: 320_000,
    });
  return { pod, person, hook, tokens };
}

const group = (page: Page, state: string) => page.getByTestId(`now-group-${state}`);
const row = (page: Page, agent: string) => page.locator(`[data-testid=now-session][data-agent=${agent}]`);

test("two vendors' sessions appear live as working; a held call waits in Needs you and is answered there", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { pod, person, hook, tokens } = await seed(request);
  await signIn(context, person);
  // Codex is connected by the person (a token of theirs), Claude Code by the site admin.
  const mine = await context.request.post(`/api/v1/pods/${pod.id}/members/codex/tokens`, {
    data: { label: "mine" },
    headers: { origin: baseURL! },
  });
  expect(mine.status(), await mine.text()).toBe(201);
  tokens.codex = (await mine.json()).token;
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Now" })).toBeVisible();
  // Nothing yet: the empty state says what to do, one click from the pod's connect panel.
  await expect(page.getByTestId("now-empty")).toContainText("No agent sessions yet");
  await expect(page.getByTestId("now-empty").getByRole("link", { name: pod.name })).toHaveAttribute(
    "href",
    `/pods/${pod.id}?tab=members`,
  );

  for (const name of ["session-start", "user-prompt-submit", "pre-tool-use-read"])
    expect((await hook("claude-code", claude(name))).status()).toBe(200);
  for (const name of ["session-start", "user-prompt-submit"])
    expect((await hook("codex", codex(name))).status()).toBe(200);
  // Live, no reload: both in Working, each with its program's badge and its pod one click away.
  await expect(group(page, "working").getByTestId("now-session")).toHaveCount(2);
  await expect(row(page, "claude").getByTestId("held-call-agent-kind")).toHaveText(/Claude Code/);
  await expect(row(page, "codex").getByTestId("held-call-agent-kind")).toHaveText(/Codex/);
  await expect(row(page, "claude").getByTestId("now-tool")).toHaveText("Read");
  await expect(row(page, "claude").getByRole("link", { name: pod.name })).toHaveAttribute(
    "href",
    `/pods/${pod.id}?tab=sessions`,
  );

  // A gated git push: Claude Code's hook waits for a person; its session moves to Needs you.
  const held = hook("claude-code", claude("pre-tool-use-git-push"), true);
  const waiting = group(page, "needs-you").locator("[data-agent=claude]");
  await expect(waiting).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("now-counts")).toContainText("Needs you 1");
  await expect(waiting.getByTestId("held-call-command")).toContainText("git push");
  await waiting.getByRole("button", { name: "Allow once" }).click();
  const answered = await held;
  expect(answered.status()).toBe(200);
  expect((await answered.json()).hookSpecificOutput).toMatchObject({ permissionDecision: "allow" });
  await expect(group(page, "working").locator("[data-agent=claude]")).toBeVisible();
  await expect(row(page, "claude").getByTestId("now-tool")).toHaveText("Bash");
  await expect(group(page, "needs-you")).toHaveCount(0);

  // Steering from Now: a message to the working Claude Code session waits, then its next hook carries it.
  const claudeRow = row(page, "claude");
  await claudeRow.getByLabel(/^Message to session /).fill("Also run the linter");
  await claudeRow.getByRole("button", { name: "Send" }).click();
  await expect(claudeRow.getByTestId("steer-status")).toHaveText("pending: at its next hook");
  const next = await hook("claude-code", claude("post-tool-use-bash"));
  expect((await next.json()).hookSpecificOutput).toMatchObject({
    additionalContext: expect.stringContaining("Also run the linter"),
  });
  await expect(claudeRow.getByTestId("steer-status")).toHaveText("delivered at PostToolUse");

  // Codex's Stop ends its turn: idle.
  expect((await hook("codex", codex("stop"))).status()).toBe(200);
  await expect(group(page, "idle").locator("[data-agent=codex]")).toBeVisible();

  // A filter is in the URL and survives a reload.
  await page.getByLabel("Agent program").selectOption("codex");
  await expect(page).toHaveURL(/[?&]kind=codex/);
  await expect(page.getByTestId("now-session")).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel("Agent program")).toHaveValue("codex");
  await expect(page.getByTestId("now-session")).toHaveCount(1);
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(page.getByTestId("now-session")).toHaveCount(2);
  // By the person who connected the agent.
  await expect(row(page, "codex")).toContainText("connected by An admin");
  await page.getByLabel("Connected by").selectOption({ label: "An admin" });
  await expect(page).toHaveURL(/[?&]person=/);
  await expect(page.getByTestId("now-session")).toHaveCount(1);
  await expect(row(page, "codex")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(page.getByTestId("now-session")).toHaveCount(2);

  // Keyboard: j focuses the first session (Working before Idle), Enter opens its pod's sessions.
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  await page.keyboard.press("j");
  await expect(row(page, "claude")).toBeFocused();
  await page.keyboard.press("j");
  await expect(row(page, "codex")).toBeFocused();
  await page.keyboard.press("k");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/pods/${pod.id}\\?tab=sessions`));
});

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("at 1280 and 390 px, light and dark: axe clean, one column on a phone, nothing scrolls sideways", async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const { pod, person, hook } = await seed(request);
  for (const name of ["session-start", "user-prompt-submit"])
    expect((await hook("claude-code", claude(name))).status()).toBe(200);
  for (const name of ["session-start", "user-prompt-submit", "stop"])
    expect((await hook("codex", codex(name))).status()).toBe(200);
  const held = hook("claude-code", claude("pre-tool-use-git-push"), true);
  for (const colorScheme of ["light", "dark"] as const) {
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ colorScheme, viewport: { width, height: 844 } });
      await signIn(context, person);
      const page = await context.newPage();
      await page.goto("/");
      await expect(group(page, "needs-you").getByTestId("held-call-command")).toBeVisible({
        timeout: 20_000,
      });
      await expect(group(page, "idle").getByTestId("now-session")).toHaveCount(1);
      const where = `${colorScheme}, ${width} px`;
      expect.soft(await seriousViolations(page), where).toEqual([]);
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      expect.soft(scroll, `${where}: sideways scroll`).toBeLessThanOrEqual(width);
      if (width === 390) {
        // One column: every session and every filter starts at the same left edge.
        const lefts = await page
          .locator("[data-testid=now-session], form[aria-label='Filter sessions'] select")
          .evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().left)));
        expect(new Set(lefts).size, `${where}: one column`).toBe(1);
      }
      await context.close();
    }
  }
  // The held call is answered on the API, so its hook returns before the test ends.
  const inbox = await request.get(`/api/v1/inbox?podId=${pod.id}`, { headers: adminHeaders });
  const [item] = ((await inbox.json()) as { items: { subject: { id: string } }[] }).items;
  const answer = { requestId: item!.subject.id, decision: "deny", reason: "checked the layout only" };
  await postEvents(request, pod.id, [ev("tool.approval.answered", "ops-admin", answer)]);
  expect((await (await held).json()).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
});
