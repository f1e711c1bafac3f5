// Every main page at phone width (390 px) and desktop (1280 px), light and dark: no visible text
// squeezed narrower than a few characters, and no page that scrolls sideways. The pages are the
// fixed list below plus every link of the main navigation, so a page the navigation gains is
// checked too. A failure names the element (see ./layout-check.ts).
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { test, expect, adminPost, signIn, type Person } from "./fixtures";
import { seedRichPod } from "./rich-pod";
import { narrowTextCells, sidewaysScroll } from "./layout-check";

const PAGES = ["/", "/inbox", "/agents", "/people", "/account", "/notifications"];

/** A site admin with a long name and email who administers the pod: every page has something to show. */
async function longNamedSiteAdmin(request: Parameters<typeof seedRichPod>[0], podId: string) {
  const person: Person = {
    email: `a-rather-long-address-of-a-site-administrator-${randomUUID().slice(0, 8)}@example.com`,
    password: "correct horse battery staple",
  };
  const name = "Maximiliana Wolkenstein-Oberhausen";
  await adminPost(request, "/api/v1/users", { ...person, name, isAdmin: true });
  await adminPost(request, `/api/v1/pods/${podId}/members`, {
    memberId: person.email,
    kind: "human",
    displayName: name,
    roles: ["admin"],
  });
  return person;
}

async function check(page: Page, path: string, label: string) {
  const res = await page.goto(path);
  expect.soft(res?.status(), `${label}: ${path} answers`).toBeLessThan(400);
  await page.waitForLoadState("load");
  await expect
    .soft(() => narrowTextCells(page).then((cells) => expect(cells).toEqual([])), `${label}: ${path}`)
    .toPass({ timeout: 10_000 });
  expect.soft(await sidewaysScroll(page), `${label}: ${path} scrolls sideways by`).toBe(0);
}

const navLinks = (page: Page) =>
  page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link")
    .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));

for (const width of [390, 1280])
  for (const colorScheme of ["light", "dark"] as const)
    test(`layout: every main page at ${width} px, ${colorScheme}`, async ({ browser, request }) => {
      test.setTimeout(300_000);
      const pod = await seedRichPod(request);
      const person = await longNamedSiteAdmin(request, pod.id);
      const label = `${width} px, ${colorScheme}`;
      const viewport = { width, height: 844 };

      const anonymous = await browser.newContext({ colorScheme, viewport });
      await check(await anonymous.newPage(), "/sign-in", label);
      await anonymous.close();

      const context = await browser.newContext({ colorScheme, viewport });
      await signIn(context, person);
      const page = await context.newPage();
      await page.goto("/");
      const paths = [...new Set([...PAGES, ...(await navLinks(page))])];
      for (const path of paths) await check(page, path, label);

      await page.goto(`/pods/${pod.id}`);
      expect(await page.getByRole("tab").count(), "the pod's tabs").toBeGreaterThan(3);
      for (const tab of await page.getByRole("tab").all()) {
        await tab.click();
        await expect(tab).toHaveAttribute("aria-selected", "true");
        await expect
          .soft(
            () => narrowTextCells(page).then((cells) => expect(cells).toEqual([])),
            `${label}: pod tab ${await tab.textContent()}`,
          )
          .toPass({ timeout: 10_000 });
        expect.soft(await sidewaysScroll(page), `${label}: pod tab ${await tab.textContent()}`).toBe(0);
      }
      await context.close();
    });
