// People in the browser: a site admin invites a person, who chooses a password
// through the one-time link in a separate browser and sees nothing until added
// to a pod; the pod admin adds them as viewer, makes them approver and back, and
// removes them (their pod list loses the pod); the person changes their password.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { test, expect, createPod, adminPost, signIn } from "./fixtures";

const accessOf = (page: Page, email: string) => page.getByRole("combobox", { name: `Access of ${email}` });

test("invite → accept → add, change and remove pod access → change own password", async ({
  page,
  context,
  browser,
  request,
  baseURL,
}) => {
  const pod = await createPod(request);
  const admin = {
    email: `site-admin-${randomUUID().slice(0, 8)}@example.com`,
    password: "correct horse battery staple",
  };
  await adminPost(request, "/api/v1/users", { ...admin, name: "Site admin", isAdmin: true });
  await signIn(context, admin);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL! });

  // The site admin invites someone from the People page; the link is shown once, with a copy button.
  const email = `newcomer-${randomUUID().slice(0, 8)}@example.com`;
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "People" }).click();
  await expect(page).toHaveURL(/\/people$/);
  const form = page.getByRole("form", { name: "Invite person" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name (optional)").fill("Newcomer");
  await form.getByRole("button", { name: "Invite person" }).click();
  const link = page.getByTestId("one-time-link");
  await link.getByRole("button", { name: "Copy link" }).click();
  await expect(link.getByRole("status")).toHaveText("Copied.");
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(url).toMatch(new RegExp(`^${baseURL}/invite/pwi_`));
  await expect(page.getByTestId("pending-invite").filter({ hasText: email })).toBeVisible();

  // Inviting the same email again is refused in the form.
  await form.getByLabel("Email").fill(email);
  await form.getByRole("button", { name: "Invite person" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "already has an invite waiting" })).toBeVisible();

  // The person opens the link elsewhere, chooses a password, and is signed in — with no pods yet.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await them.goto(url);
  await expect(them.getByTestId("invite-email")).toHaveText(email);
  await them.getByLabel("New password").fill("short");
  await them.getByLabel("Repeat the password").fill("short");
  await them.getByRole("button", { name: "Create my account" }).click();
  await expect(them.getByRole("form", { name: "Choose your password" }).getByRole("alert")).toHaveText(
    "Use at least 12 characters.",
  );
  const password = "my own chosen password";
  await them.getByLabel("New password").fill(password);
  await them.getByLabel("Repeat the password").fill(password);
  await them.getByRole("button", { name: "Create my account" }).click();
  await expect(them).toHaveURL(`${baseURL}/`);
  await expect(them.getByTestId("signed-in-as")).toHaveText(email);
  await expect(them.getByText(pod.name)).toHaveCount(0);

  // The link worked once.
  const again = await browser.newContext();
  const stranger = await again.newPage();
  await stranger.goto(url);
  await expect(stranger.getByRole("heading", { name: "This link was already used" })).toBeVisible();
  await expect(stranger.getByRole("button")).toHaveCount(0);
  await again.close();

  // The pod admin adds them as a viewer; the person now sees the pod.
  await page.goto(`/pods/${pod.id}?tab=members&section=people`);
  const people = page.getByTestId("people-panel");
  const add = people.getByRole("form", { name: "Add a person" });
  await add.getByLabel("Email").fill(`nobody-${randomUUID().slice(0, 6)}@example.com`);
  await add.getByRole("button", { name: "Add person" }).click();
  await expect(people.getByRole("alert")).toContainText("No account uses");
  await expect(people.getByRole("link", { name: "Invite them first" })).toBeVisible();
  await add.getByLabel("Email").fill(email);
  await add.getByLabel("Access").selectOption("viewer");
  await add.getByRole("button", { name: "Add person" }).click();
  await expect(accessOf(page, email)).toHaveValue("viewer");
  await them.goto("/pods");
  await expect(them.getByText(pod.name)).toBeVisible();

  // Approver, then viewer again; each change is an event on the tape.
  await accessOf(page, email).selectOption("approver");
  await expect(accessOf(page, email)).toHaveValue("approver");
  await accessOf(page, email).selectOption("viewer");
  await expect(accessOf(page, email)).toHaveValue("viewer");

  // Removed: the person's page loses the pod.
  await people.getByRole("button", { name: `Remove ${email}` }).click();
  await people
    .getByRole("group", { name: `Confirm removing ${email}` })
    .getByRole("button", { name: "Yes, remove" })
    .click();
  await expect(accessOf(page, email)).toHaveCount(0);
  await them.goto("/pods");
  await expect(them.getByTestId("signed-in-as")).toHaveText(email);
  await expect(them.getByText(pod.name)).toHaveCount(0);
  await page.goto(`/pods/${pod.id}?tab=tape`);
  await expect(page.getByText(`${email} no longer has access`)).toBeVisible();

  // The person changes their own password from the user menu, and signs in with it.
  await them.getByRole("link", { name: "Account" }).click();
  await expect(them).toHaveURL(/\/account$/);
  const change = them.getByRole("form", { name: "Change password" });
  await change.getByLabel("Current password").fill("not my password");
  await change.getByLabel("New password", { exact: true }).fill("an even newer password");
  await change.getByLabel("Repeat the new password").fill("an even newer password");
  await change.getByRole("button", { name: "Change password" }).click();
  await expect(change.getByRole("alert")).toHaveText("Your current password is not right.");
  await change.getByLabel("Current password").fill(password);
  await change.getByRole("button", { name: "Change password" }).click();
  await expect(change.getByRole("status")).toHaveText("Your password is changed.");
  await them.getByRole("button", { name: "Sign out" }).click();
  await expect(them).toHaveURL(/\/sign-in/);
  await them.getByLabel("Email").fill(email);
  await them.getByLabel("Password").fill(password);
  await them.getByRole("button", { name: "Sign in" }).click();
  await expect(them.getByRole("alert").filter({ hasText: "do not match" })).toBeVisible();
  await them.getByLabel("Password").fill("an even newer password");
  await them.getByRole("button", { name: "Sign in" }).click();
  await expect(them.getByTestId("signed-in-as")).toHaveText(email);
  await theirs.close();
});
