// A pod admin adds an agent in the browser, copies its shell snippet, and the
// CLI posts with it; rotating refuses the old token, revoking the new one.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { test, expect, createPod, createPerson, signIn } from "./fixtures";
import { runCli } from "../server/testing/run-cli";

/** The shell snippet as the CLI's environment: `export K=V K=V …` (the values need no quoting here). */
function envOf(snippet: string): Record<string, string> {
  expect(snippet).toMatch(/^export PODWATCH_URL=\S+ PODWATCH_TOKEN=pwa_\S+ PODWATCH_POD=\S+$/);
  return Object.fromEntries(
    snippet
      .replace(/^export /, "")
      .split(" ")
      .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );
}

/** The open token panel and the agents section: no serious axe findings (light and dark), no sideways scroll at 390 px. */
async function checkPanelLooks(page: Page) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).include('[data-testid="agents-panel"]').analyze();
    expect(
      violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      colorScheme,
    ).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize(size);
}

/** Copies the shell snippet with its button and reads it back from the clipboard. */
async function copyShell(page: Page): Promise<string> {
  const panel = page.getByTestId("token-snippets");
  await panel.getByRole("button", { name: "Copy shell environment for the cli" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await panel.getByTestId("snippet-shell").textContent());
  return copied;
}

test("a pod admin adds an agent, the CLI posts with the copied snippet; rotate and revoke refuse the old tokens", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const pod = await createPod(request);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  await signIn(context, await createPerson(request, pod.id, "admin"));
  await page.goto(`/pods/${pod.id}?tab=members`);

  const form = page.getByRole("form", { name: "Add agent" });
  await form.getByLabel("Agent id").fill("cli-impl");
  await form.getByLabel("Display name").fill("CLI implementer");
  await form.getByRole("checkbox", { name: "implementer" }).check();
  await form.getByRole("button", { name: "Add agent and create its token" }).click();

  const panel = page.getByTestId("token-snippets");
  await expect(panel.getByRole("heading", { name: "CLI implementer added: its first token" })).toBeFocused();
  await checkPanelLooks(page);
  const mcp = JSON.parse((await panel.getByTestId("snippet-mcp").textContent())!);
  const env = envOf(await copyShell(page));
  expect(env).toEqual({
    PODWATCH_URL: baseURL,
    PODWATCH_TOKEN: expect.stringMatching(/^pwa_/),
    PODWATCH_POD: pod.id,
  });
  expect(mcp.mcpServers.podwatch).toEqual({ command: "podwatch", args: ["mcp"], env });

  const posted = await runCli(
    ["checkpoint", "-c", "Posted with the browser's snippet", "-n", "Ask for review"],
    env,
  );
  expect(posted.code, posted.stderr).toBe(0);

  // Leaving the panel forgets the token: the page no longer holds it.
  await panel.getByRole("button", { name: "Done, I have stored it" }).click();
  await expect(panel).toHaveCount(0);
  expect(await page.content()).not.toContain(env.PODWATCH_TOKEN);

  // The member is listed with its token, used just now.
  const agent = page.getByTestId("agent").filter({ hasText: "cli-impl" });
  await expect(agent.getByTestId("agent-token")).toHaveCount(1);
  await expect(agent.getByTestId("agent-token")).toContainText("last used");

  // A second agent with the same id is refused in the form, and nothing is added.
  await form.getByLabel("Agent id").fill("cli-impl");
  await form.getByLabel("Display name").fill("Again");
  await form.getByRole("button", { name: "Add agent and create its token" }).click();
  await expect(form.getByRole("alert")).toHaveText(
    "cli-impl is already a member of this pod; choose another id",
  );
  await expect(page.getByTestId("token-snippets")).toHaveCount(0);
  await expect(page.getByTestId("agent")).toHaveCount(1);

  // Rotate: a new token shown once; the old one is refused by the CLI (exit 4), the new one works.
  await agent.getByRole("button", { name: "Rotate first token of cli-impl" }).click();
  await agent.getByRole("button", { name: "Yes, rotate" }).click();
  await expect(panel.getByRole("heading", { name: "Rotated: the new token for cli-impl" })).toBeVisible();
  const rotated = envOf(await copyShell(page));
  expect(rotated.PODWATCH_TOKEN).not.toBe(env.PODWATCH_TOKEN);
  expect((await runCli(["whoami"], env)).code).toBe(4);
  const whoami = await runCli(["whoami"], rotated);
  expect([whoami.code, whoami.stdout]).toEqual([0, expect.stringContaining("cli-impl")]);
  await panel.getByRole("button", { name: "Done, I have stored it" }).click();
  await expect(agent.getByTestId("agent-token").filter({ hasText: "revoked" })).toHaveCount(1);

  // Revoke the new one (asked first): the CLI is refused with it too.
  const live = agent.getByTestId("agent-token").filter({ hasNotText: "revoked" });
  await live.getByRole("button", { name: "Revoke first token of cli-impl" }).click();
  await expect(agent.getByRole("button", { name: "Yes, revoke" })).toBeFocused();
  await page.keyboard.press("Escape"); // asked first: Escape (or Cancel) leaves the token alone
  await expect(agent.getByRole("button", { name: "Yes, revoke" })).toHaveCount(0);
  expect((await runCli(["whoami"], rotated)).code).toBe(0);
  await live.getByRole("button", { name: "Revoke first token of cli-impl" }).click();
  await agent.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(agent.getByTestId("agent-token").filter({ hasText: "revoked" })).toHaveCount(2);
  expect((await runCli(["whoami"], rotated)).code).toBe(4);

  // The checkpoint the CLI posted is on the tape.
  await page.goto(`/pods/${pod.id}?tab=tape`);
  await expect(page.getByText("Posted with the browser's snippet").first()).toBeVisible();
});
