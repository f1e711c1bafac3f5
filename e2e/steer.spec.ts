// Steering a running Claude Code session from the browser: an approver sends a message on the
// Sessions tab, and Claude Code's next hook (its exact http hook contract, POSTed to the real hook
// route with the agent's token) receives it as context; the card marks it delivered. Interrupt,
// asked first, denies the next tool call with the person's reason and ends the turn. At desktop
// width in light and at 390 px in dark, axe clean; a viewer sees no controls.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { test, expect, createPod, createPerson, adminPost, signIn } from "./fixtures";

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(process.cwd(), "server/hooks/fixtures", `${name}.json`), "utf8"));

async function hook(request: APIRequestContext, token: string, input: Record<string, unknown>) {
  const res = await request.post("/api/v1/hooks/claude-code", {
    headers: { authorization: `Bearer ${token}` },
    data: input,
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .include('[data-testid="sessions-panel"]')
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

async function runningSession(request: APIRequestContext) {
  const pod = await createPod(request);
  await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
    memberId: "claude",
    kind: "agent",
    displayName: "Claude Code",
    roles: ["implementer"],
  });
  const { token } = await adminPost(request, `/api/v1/pods/${pod.id}/members/claude/tokens`, {
    label: "hooks",
  });
  for (const name of ["session-start", "user-prompt-submit"])
    expect(await hook(request, token, fixture(name))).toEqual({});
  return { podId: pod.id as string, token: token as string };
}

for (const look of [
  { name: "desktop, light", colorScheme: "light" as const, width: 1280, height: 800 },
  { name: "390 px, dark", colorScheme: "dark" as const, width: 390, height: 844 },
])
  test(`an approver's message reaches the session at its next hook, and Interrupt stops the turn (${look.name})`, async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ colorScheme: look.colorScheme, viewport: look });
    const page = await context.newPage();
    const { podId, token } = await runningSession(request);
    await signIn(context, await createPerson(request, podId, "approver"));
    await page.goto(`/pods/${podId}?tab=sessions`);
    const card = page.getByTestId("session").first();
    const box = card.getByRole("textbox", { name: /^Message to session / });
    await box.fill("Write the tests first");
    await box.press("Enter"); // the keyboard sends it
    const steer = card.getByTestId("steer").filter({ hasText: "Write the tests first" });
    await expect(steer.getByTestId("steer-status")).toHaveText("pending: at its next hook");
    expect(await seriousViolations(page)).toEqual([]);

    // Claude Code's next PostToolUse hook: the message comes back as context for the model.
    const answer = await hook(request, token, fixture("post-tool-use-bash"));
    expect(answer.hookSpecificOutput).toEqual({
      hookEventName: "PostToolUse",
      additionalContext: expect.stringContaining("Write the tests first"),
    });
    await expect(steer.getByTestId("steer-status")).toHaveText("delivered at PostToolUse");

    // Interrupt, with a reason, asked first.
    await box.fill("Stop: the migration is wrong");
    await card.getByRole("button", { name: "Interrupt" }).click();
    await card.getByRole("button", { name: "Yes, interrupt" }).click();
    const stop = card.getByTestId("steer").filter({ hasText: "Stop: the migration is wrong" });
    await expect(stop.getByTestId("steer-status")).toHaveText("pending: at its next hook");
    const denied = await hook(request, token, fixture("pre-tool-use-bash"));
    expect(denied).toMatchObject({
      continue: false,
      hookSpecificOutput: {
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringContaining("migration"),
      },
    });
    await expect(stop.getByTestId("steer-status")).toHaveText("delivered at PreToolUse");
    // The text boxes stay readable at this width.
    expect((await box.boundingBox())!.width).toBeGreaterThan(120);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

test("a viewer sees what was said to a session but cannot steer it", async ({ page, context, request }) => {
  const { podId } = await runningSession(request);
  await signIn(context, await createPerson(request, podId, "viewer"));
  await page.goto(`/pods/${podId}?tab=sessions`);
  await expect(page.getByTestId("session")).toHaveCount(1);
  await expect(page.getByRole("textbox", { name: /^Message to session / })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Interrupt" })).toHaveCount(0);
});
