import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from "@playwright/test";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { E2E_ADMIN_TOKEN } from "./constants";

/** Headers of the e2e server's admin token (site admin on the API). */
export const adminHeaders = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const admin = adminHeaders;

/** An event with a fresh id, as agents post them. */
export const ev = (type: string, actor: string, body: object, extra: object = {}) => ({
  id: randomUUID(),
  type,
  actor,
  body,
  ...extra,
});
const unique = (p: string) => `${p}-${randomUUID().slice(0, 8)}`;

/** Each spec seeds its own pod and people through the public API, so specs run in parallel without a reset. */
export async function createPod(request: APIRequestContext, name = unique("e2e")) {
  const res = await request.post("/api/v1/pods", {
    data: { name, mode: "collaboration", scope: "seeded by an e2e spec" },
    headers: admin,
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; name: string };
}

export async function postEvents(request: APIRequestContext, podId: string, events: object[]) {
  const res = await request.post(`/api/v1/pods/${podId}/events`, { data: { events }, headers: admin });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { events: { id: string; seq: number }[] }).events;
}

export async function adminPost(request: APIRequestContext, path: string, data: object) {
  const res = await request.post(path, { data, headers: admin });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

export type Person = { email: string; password: string };

/** A person with the given access to the pod. */
export async function createPerson(
  request: APIRequestContext,
  podId: string,
  access: "viewer" | "approver" | "admin",
): Promise<Person> {
  const person = { email: `${unique(access)}@example.com`, password: "correct horse battery staple" };
  await adminPost(request, "/api/v1/users", { ...person, name: `An ${access}` });
  await adminPost(request, `/api/v1/pods/${podId}/members`, {
    memberId: person.email,
    kind: "human",
    displayName: `An ${access}`,
    roles: [access],
  });
  return person;
}

/** Signs a browser context in (the cookie lands in the context's jar). */
export async function signIn(context: BrowserContext, person: Person) {
  const res = await context.request.post("/api/auth/sign-in/email", { data: person });
  expect(res.status(), await res.text()).toBe(200);
}

/** The first-start admin, read off the console where the server prints their one-time password (playwright.config.ts keeps it in the run's server.log). */
export async function firstStartAdmin(): Promise<Person> {
  const log = join(process.env.E2E_DATA_DIR!, "server.log");
  const line = () =>
    (existsSync(log) ? readFileSync(log, "utf8") : "").match(
      /first start — sign in at \S+ as (\S+) with the password (\S+)/,
    );
  await expect.poll(line, { message: "the first-start line on the server's console" }).not.toBeNull();
  const [, email, password] = line()!;
  return { email: email!, password: password! };
}

/** Signs in through the sign-in page, as a person would. */
export async function signInInBrowser(page: Page, person: Person) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(person.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(person.email);
}

/** A site admin's page invites `email` from the People page; answers the one-time link, copied with its button (the context may read the clipboard). */
export async function inviteInBrowser(page: Page, email: string, name: string): Promise<string> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "People" }).click();
  const form = page.getByRole("form", { name: "Invite person" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name (optional)").fill(name);
  await form.getByRole("button", { name: "Invite person" }).click();
  const link = page.getByTestId("one-time-link");
  await expect(link).toContainText(email);
  await link.getByRole("button", { name: "Copy link" }).click();
  await expect(link.getByRole("status")).toHaveText("Copied.");
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(url).toBe(await link.getByTestId("one-time-link-url").inputValue());
  await link.getByRole("button", { name: "Done" }).click();
  return url;
}

/** The invited person opens the link in a browser of their own and chooses a password; they are signed in there. */
export async function acceptInviteInBrowser(
  browser: Browser,
  url: string,
  person: Person,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByTestId("invite-email")).toHaveText(person.email);
  await page.getByLabel("New password").fill(person.password);
  await page.getByLabel("Repeat the password").fill(person.password);
  await page.getByRole("button", { name: "Create my account" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(person.email);
  return { context, page };
}

export const checkpoint = (text: string) => ({
  id: randomUUID(),
  type: "checkpoint",
  actor: "implementer-e2e",
  role: "implementer",
  body: { completed: [text], next: ["keep going"], blocked: [] },
});

export { base as test, expect };
