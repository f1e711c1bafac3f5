// The whole first setup in the browser, as a new team lead does it after `npm start`:
// the first-start admin signs in with the printed password and chooses their own,
// creates a pod, adds two agents and copies their tokens (the CLI posts with one),
// invites an approver and a viewer (each accepts in a browser of their own), adds
// them to the pod, makes the viewer approver and back, shares the pod with a link
// an onlooker opens before (and not after) it is revoked, and closes the pod.
// No API call but the CLI's.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  test,
  expect,
  firstStartAdmin,
  signInInBrowser,
  inviteInBrowser,
  acceptInviteInBrowser,
} from "./fixtures";
import { runCli } from "../server/testing/run-cli";

/** Adds an agent on the Members tab; answers the token, copied with its button and read back from the clipboard, and the shell snippet as shown. */
async function addAgent(page: Page, memberId: string, displayName: string, role: string) {
  const form = page.getByRole("form", { name: "Add agent" });
  await form.getByLabel("Agent id").fill(memberId);
  await form.getByLabel("Display name").fill(displayName);
  await form.getByRole("checkbox", { name: role }).check();
  await form.getByRole("button", { name: "Add agent and create its token" }).click();
  const panel = page.getByTestId("token-snippets");
  await expect(panel.getByRole("heading", { name: `${displayName} added: its first token` })).toBeFocused();
  await panel.getByRole("button", { name: "Copy token" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  const token = await page.evaluate(() => navigator.clipboard.readText());
  expect(token).toMatch(/^pwa_/);
  expect(token).toBe(await panel.getByTestId("snippet-token").textContent());
  const shell = (await panel.getByTestId("snippet-shell").textContent())!;
  await panel.getByRole("button", { name: "Done, I have stored it" }).click();
  await expect(panel).toHaveCount(0);
  await expect(
    page.getByTestId("agent").filter({ hasText: memberId }).getByTestId("agent-token"),
  ).toHaveCount(1);
  return { token, shell };
}

const accessOf = (page: Page, email: string) => page.getByRole("combobox", { name: `Access of ${email}` });

test("the first-start admin sets up a pod in the browser: agents, people, a share link, close", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });
  const suffix = randomUUID().slice(0, 8);

  // The first-start admin signs in with the printed password and is asked to choose their own.
  const admin = await firstStartAdmin();
  await signInInBrowser(page, admin);
  const banner = page.getByTestId("password-banner");
  await banner.getByRole("link", { name: "Choose your own password" }).click();
  await expect(page).toHaveURL(/\/account$/);
  const change = page.getByRole("form", { name: "Change password" });
  await change.getByLabel("Current password").fill(admin.password);
  await change.getByLabel("New password", { exact: true }).fill("the lead's own password");
  await change.getByLabel("Repeat the new password").fill("the lead's own password");
  await change.getByRole("button", { name: "Change password" }).click();
  await expect(change.getByRole("status")).toHaveText("Your password is changed.");
  await expect(banner).toHaveCount(0);

  // New pod: it opens on its setup view, forming and ready to start (agents and people are optional).
  const name = `first-pod-${suffix}`;
  await page.goto("/pods");
  await page.getByRole("button", { name: "New pod" }).click();
  const newPod = page.getByRole("form", { name: "New pod" });
  await newPod.getByLabel("Name").fill(name);
  await newPod.getByLabel("Mode").selectOption("collaboration");
  await newPod.getByLabel("Scope").fill("Split the payments module");
  await newPod.getByLabel(/Success criteria/).fill("Tests pass\nDocs updated");
  await newPod.getByLabel(/Checkpoint every/).fill("20");
  await newPod.getByRole("button", { name: "Create pod" }).click();
  await expect(page).toHaveURL(/\/pods\/[0-9a-f-]+\?tab=setup$/);
  const podPath = new URL(page.url()).pathname;
  const podId = podPath.split("/").pop()!;
  await expect(page).toHaveTitle(`podwatch · ${name}`);
  await expect(page.getByTestId("setup-scope")).toHaveAttribute("data-done", "true");
  await expect(page.getByTestId("setup-agents")).toHaveAttribute("data-done", "false");
  // Agents and people are optional: the scope is agreed, so the pod could start now.
  await expect(page.getByTestId("forming-notice")).toContainText("ready to start");

  // Two agents, each token copied once; the CLI posts a checkpoint with the first one's snippet.
  await page.getByTestId("setup-agents").getByRole("link", { name: "Go to Members" }).click();
  await expect(page.getByRole("tab", { name: /members/i })).toHaveAttribute("aria-selected", "true");
  const implementer = await addAgent(page, "impl-1", "Implementer one", "implementer");
  const reviewer = await addAgent(page, "rev-1", "Reviewer one", "reviewer");
  expect(reviewer.token).not.toBe(implementer.token);
  const env = Object.fromEntries(
    implementer.shell
      .replace(/^export /, "")
      .split(" ")
      .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );
  expect(env).toEqual({ PODWATCH_URL: baseURL, PODWATCH_TOKEN: implementer.token, PODWATCH_POD: podId });
  const posted = await runCli(["checkpoint", "-c", "Set up from the browser", "-n", "Split the module"], env);
  expect(posted.code, posted.stderr).toBe(0);
  const whoami = await runCli(["whoami"], { PODWATCH_URL: baseURL, PODWATCH_TOKEN: reviewer.token });
  expect([whoami.code, whoami.stdout], whoami.stderr).toEqual([0, expect.stringContaining("rev-1")]);

  // Two people invited from the People page; each accepts in a browser of their own.
  const approver = { email: `approver-${suffix}@example.com`, password: "the approver's password" };
  const viewer = { email: `viewer-${suffix}@example.com`, password: "the viewer's password" };
  const approverUrl = await inviteInBrowser(page, approver.email, "An approver");
  const viewerUrl = await inviteInBrowser(page, viewer.email, "A viewer");
  const approverSide = await acceptInviteInBrowser(browser, approverUrl, approver);
  const viewerSide = await acceptInviteInBrowser(browser, viewerUrl, viewer);
  await expect(viewerSide.page.getByText(name)).toHaveCount(0); // no pods until added

  // The pod admin adds them with their access; each now sees the pod.
  await page.goto(`${podPath}?tab=members&section=people`);
  const add = page.getByTestId("people-panel").getByRole("form", { name: "Add a person" });
  for (const [person, access] of [
    [approver, "approver"],
    [viewer, "viewer"],
  ] as const) {
    await add.getByLabel("Email").fill(person.email);
    await add.getByLabel("Access").selectOption(access);
    await add.getByRole("button", { name: "Add person" }).click();
    await expect(accessOf(page, person.email)).toHaveValue(access);
  }
  await expect(page.getByTestId("forming-notice")).toContainText("ready to start");
  await viewerSide.page.goto(podPath);
  await expect(viewerSide.page.getByRole("heading", { name })).toBeVisible();
  await expect(viewerSide.page.getByTestId("read-only-notice")).toBeVisible();
  await approverSide.page.goto(`${podPath}?tab=tape`);
  await expect(approverSide.page.getByText("Set up from the browser").first()).toBeVisible();

  // The viewer made approver, then viewer again.
  await accessOf(page, viewer.email).selectOption("approver");
  await expect(accessOf(page, viewer.email)).toHaveValue("approver");
  await viewerSide.page.reload();
  await expect(viewerSide.page.getByTestId("read-only-notice")).toHaveCount(0);
  await accessOf(page, viewer.email).selectOption("viewer");
  await expect(accessOf(page, viewer.email)).toHaveValue("viewer");
  await viewerSide.page.reload();
  await expect(viewerSide.page.getByTestId("read-only-notice")).toBeVisible();

  // A share link: an onlooker without an account opens it, then it is revoked (asked first) and refused.
  await page.getByRole("tablist", { name: "Members sections" }).getByRole("tab", { name: "Sharing" }).click();
  const sharing = page.locator("#sharing");
  await sharing.getByLabel("Label").fill("for the client");
  await sharing.getByLabel("Expires").selectOption("168");
  await sharing.getByRole("button", { name: "Create share link" }).click();
  const shareUrl = await sharing.getByRole("textbox", { name: "The new share link" }).inputValue();
  expect(shareUrl).toMatch(new RegExp(`^${baseURL}/share/pws_`));
  await sharing.getByRole("button", { name: "Copy link" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shareUrl);
  await expect(sharing.getByTestId("share-link-row").filter({ hasText: "for the client" })).toContainText(
    "expires in 7d",
  );
  const onlooker = await browser.newContext();
  const anon = await onlooker.newPage();
  await anon.goto(shareUrl);
  await expect(anon).toHaveURL(new RegExp(`${podPath}$`));
  await expect(anon.getByRole("heading", { name })).toBeVisible();
  await sharing.getByRole("button", { name: "Revoke for the client" }).click();
  await sharing.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(sharing.getByTestId("share-link-row").filter({ hasText: "for the client" })).toContainText(
    "revoked",
  );
  const refused = await onlooker.newPage();
  await refused.goto(shareUrl);
  await expect(refused.getByText("expired or was revoked")).toBeVisible();
  await anon.reload(); // the onlooker's view of the pod ends with the link
  await expect(anon.getByRole("heading", { name })).toHaveCount(0);
  await onlooker.close();

  // Start, then close the pod with its confirmation; everyone sees it closed.
  await page.getByRole("tab", { name: /setup/i }).click();
  for (const step of ["scope", "agents", "people"])
    await expect(page.getByTestId(`setup-${step}`)).toHaveAttribute("data-done", "true");
  await page.getByRole("tabpanel").getByRole("button", { name: "Start pod" }).click();
  await expect(page.getByTestId("pod-status")).toContainText("active");
  await expect(page.getByTestId("setup-start")).toHaveAttribute("data-done", "true");
  await page.getByRole("button", { name: "Close pod…" }).click();
  const closing = page.getByRole("group", { name: "Close the pod" });
  await closing.getByLabel("Reason for closing (optional)").fill("Set up and done");
  await closing.getByRole("button", { name: "Close pod for good" }).click();
  await expect(page.getByTestId("pod-status")).toContainText("closed");
  await approverSide.page.reload();
  await expect(approverSide.page.getByTestId("pod-status")).toContainText("closed");

  await approverSide.context.close();
  await viewerSide.context.close();
});
