// A site admin sets up a pod in the browser: New pod → the setup view → Start,
// a share link that an onlooker opens before (and not after) it is revoked,
// then Close and Archive. No API call but the one creating the admin.
import { adminPost, expect, signIn, test } from "./fixtures";

test("a site admin creates, starts, shares, closes and archives a pod from the browser", async ({
  browser,
  page,
  request,
}) => {
  const admin = { email: `setup-admin-${Date.now()}@example.com`, password: "correct horse battery staple" };
  await adminPost(request, "/api/v1/users", { ...admin, name: "Site admin", isAdmin: true });
  await signIn(page.context(), admin);
  const name = `setup-${Date.now()}`;

  await page.goto("/pods");
  await page.getByRole("button", { name: "New pod" }).click();
  const form = page.getByRole("form", { name: "New pod" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Mode").selectOption("contracting");
  await form.getByLabel("Scope").fill("Split the payments module");
  // Bad input shows in the form, and nothing is created.
  await form.getByRole("button", { name: "Create pod" }).click();
  await expect(form.getByRole("alert")).toContainText("success criterion");
  await form.getByLabel(/Success criteria/).fill("Tests pass\nDocs updated");
  await form.getByLabel(/Checkpoint every/).fill("15");
  await form.getByRole("button", { name: "Create pod" }).click();

  await expect(page).toHaveURL(/\/pods\/[0-9a-f-]+\?tab=setup$/);
  const podUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByTestId("setup-agreed-scope")).toContainText("Checkpoints every 15 minutes");
  await expect(page.getByTestId("setup-agreed-scope")).toContainText("Docs updated");
  await expect(page.getByTestId("setup-checklist")).toContainText("Scope and success criteria agreed");
  await expect(page.getByTestId("forming-notice")).toContainText("ready to start");
  await expect(page.getByRole("button", { name: "Start pod" })).toHaveCount(1);

  await page.getByRole("tabpanel").getByRole("button", { name: "Start pod" }).click();
  await expect(page.getByTestId("pod-status")).toContainText("active");
  await expect(page.getByTestId("forming-notice")).toHaveCount(0);

  // A share link, shown once, opened by someone without an account, then revoked.
  await page.getByRole("tab", { name: /members/i }).click();
  await page.getByRole("tablist", { name: "Members sections" }).getByRole("tab", { name: "Sharing" }).click();
  const sharing = page.locator("#sharing");
  await sharing.getByLabel("Label").fill("for the client");
  await sharing.getByLabel("Expires").selectOption("never");
  await sharing.getByRole("button", { name: "Create share link" }).click();
  const url = await sharing.getByRole("textbox", { name: "The new share link" }).inputValue();
  expect(url).toMatch(/\/share\/pws_/);
  await expect(sharing.getByTestId("share-link-row")).toContainText("for the client");
  await expect(sharing.getByTestId("share-link-row")).toContainText("never expires");

  const onlooker = await browser.newContext();
  const anon = await onlooker.newPage();
  await anon.goto(new URL(url).pathname);
  await expect(anon).toHaveURL(new RegExp(`${podUrl}$`));
  await expect(anon.getByRole("heading", { name })).toBeVisible();
  await onlooker.close();

  await sharing.getByRole("button", { name: "Revoke for the client" }).click();
  await sharing.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(sharing.getByTestId("share-link-row")).toContainText("revoked");
  const later = await browser.newContext();
  const res = await later.request.get(new URL(url).pathname, { maxRedirects: 0 });
  expect(res.status()).toBe(404);
  expect(await res.text()).toContain("expired or was revoked");
  await later.close();

  // Close, with its confirmation.
  await page.getByRole("button", { name: "Close pod…" }).click();
  const closing = page.getByRole("group", { name: "Close the pod" });
  await closing.getByLabel("Reason for closing (optional)").fill("Done");
  await closing.getByRole("button", { name: "Close pod for good" }).click();
  await expect(page.getByTestId("pod-status")).toContainText("closed");

  // Archive from the list: gone from the pods, listed under Archived.
  await page.goto("/pods");
  await page.getByRole("button", { name: `Archive ${name}` }).click();
  await expect(page.getByRole("link", { name: new RegExp(name) })).toHaveCount(0);
  await page.getByRole("link", { name: "Archived pods" }).click();
  await expect(page.getByRole("heading", { name: "Archived pods" })).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(name) })).toBeVisible();
});
