import type { Page } from "@playwright/test";
import { test, expect, createPod, createPerson, postEvents, checkpoint } from "./fixtures";

type Sent = { url(): string; headers(): Record<string, string>; text(): Promise<string> };

const scriptSrc = (csp: string) =>
  csp
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src ")) ?? "";

/** The nonce a page was sent with, after checking its policy admits no inline script and every script in the HTML carries it. */
async function nonceOf(sent: Sent | null): Promise<string> {
  const csp = sent?.headers()["content-security-policy"] ?? "";
  const src = scriptSrc(csp);
  expect(src, csp).not.toContain("'unsafe-inline'");
  expect(src).toContain("'strict-dynamic'");
  const nonce = /'nonce-([A-Za-z0-9+/]+={0,2})'/.exec(src)?.[1];
  expect(nonce, csp).toBeTruthy();
  const tags = (await sent!.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(tags.length).toBeGreaterThan(0); // Next's bootstrap and flight data are inline scripts
  for (const tag of tags) expect(tag, sent!.url()).toContain(` nonce="${nonce}"`);
  return nonce!;
}

/** Every CSP violation the page reports, as DOM events and as console messages, across navigations. */
async function watchViolations(page: Page) {
  const seen: string[] = [];
  page.on("console", (m) => void (m.text().includes("Content Security Policy") && seen.push(m.text())));
  await page.exposeFunction("__reportCspViolation", (v: string) => void seen.push(v));
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { __reportCspViolation: (v: string) => void }).__reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || "inline"}`,
      ),
    ),
  );
  return seen;
}

test("pages get a fresh nonce per response on every script, and no 'unsafe-inline' scripts", async ({
  request,
}) => {
  const first = await nonceOf(await request.get("/sign-in"));
  const second = await nonceOf(await request.get("/sign-in"));
  expect(second).not.toBe(first);
  // Next's not-found page is built from the same root layout: it must not be a prerendered page without nonces.
  const missing = await request.get("/no-such-page");
  expect(missing.status()).toBe(404);
  await nonceOf(missing);
  // JSON answers run no script at all: no nonce, nothing inline.
  const health = await request.get("/healthz");
  expect(scriptSrc(health.headers()["content-security-policy"] ?? "")).toBe("script-src 'self'");
});

test("signing in and watching a pod work under the CSP without a single violation", async ({
  page,
  request,
}) => {
  const pod = await createPod(request);
  const viewer = await createPerson(request, pod.id, "viewer");
  await postEvents(request, pod.id, [checkpoint("wired the nonce through")]);
  const violations = await watchViolations(page);

  await nonceOf(await page.goto(`/pods/${pod.id}`));
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel("Email").fill(viewer.email);
  await page.getByLabel("Password").fill(viewer.password);
  await page.getByRole("button", { name: "Sign in" }).click(); // hydrated React handles this, or there is no fetch and no redirect
  await expect(page).toHaveURL(new RegExp(`/pods/${pod.id}$`));

  await nonceOf(await page.reload());
  await page.getByRole("tab", { name: "tape" }).click();
  await expect(page.getByTestId("connection-state")).toHaveAttribute("data-state", "live");
  await expect(page.getByTestId("tape-event").filter({ hasText: "wired the nonce through" })).toBeVisible();
  expect(violations).toEqual([]);
});

test("markup injected into a page cannot run script", async ({ page }) => {
  const violations = await watchViolations(page);
  await page.goto("/sign-in");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  expect(violations).toEqual([]);
  // What an HTML injection would plant: an inline handler. Only scripts carrying the nonce may run.
  await page.evaluate(() =>
    document.body.insertAdjacentHTML("beforeend", `<img src="/no-such-image" onerror="window.__pwned = 1">`),
  );
  await expect.poll(() => violations.length).toBeGreaterThan(0);
  expect(violations.join("\n")).toContain("script-src");
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});
