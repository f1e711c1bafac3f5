// axe on every page, light and dark, failing on serious or critical violations; and
// no page scrolls sideways at phone width (390 px). To cover a new page, add it to PAGES.
import { existsSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { test, expect, createPerson, signIn, type Person } from "./fixtures";
import { seedRichPod } from "./rich-pod";

type Ctx = { podId: string };
type PageCase = {
  name: string;
  /** The route file that must exist for this page to be checked (pages other work adds). */
  route?: string;
  /** Who looks: an admin of the seeded pod, or nobody signed in. */
  as: "admin" | "anonymous";
  path: (c: Ctx) => string;
  /** What shows the page has loaded its data. */
  ready: (p: Page) => Promise<void>;
};

const heading = (p: Page) => expect(p.getByRole("heading", { level: 1 }).first()).toBeVisible();
const tab = (name: string, ready: (p: Page) => Promise<void> = heading): PageCase => ({
  name: `pod ${name} tab`,
  as: "admin",
  path: (c) => `/pods/${c.podId}?tab=${name}`,
  ready: async (p) => {
    await expect(p.getByRole("tab", { name, selected: true })).toBeVisible();
    await ready(p);
  },
});

const PAGES: PageCase[] = [
  {
    name: "pods list",
    as: "admin",
    path: () => "/pods",
    ready: (p) => expect(p.getByTestId("pod-row").first()).toBeVisible(),
  },
  {
    name: "now",
    as: "admin",
    path: () => "/",
    ready: (p) => expect(p.getByTestId("now-session").first()).toBeVisible(),
  },
  tab("board", (p) => expect(p.getByTestId("task-card").first()).toBeVisible()),
  tab("tape", (p) => expect(p.getByTestId("tape-event").first()).toBeVisible()),
  tab("inbox", (p) => expect(p.getByTestId("inbox-item").first()).toBeVisible()),
  tab("sessions", (p) => expect(p.getByTestId("usage-table")).toBeVisible()),
  tab("evidence", (p) => expect(p.getByText("ev-login").first()).toBeVisible()),
  tab("runs", (p) => expect(p.getByText("r1").first()).toBeVisible()),
  tab("signals", (p) => expect(p.getByTestId("chart-cost")).toBeVisible()),
  tab("members"),
  tab("job", (p) => expect(p.getByText("Security audit").first()).toBeVisible()),
  tab("setup"),
  {
    name: "inbox",
    as: "admin",
    path: () => "/inbox",
    ready: (p) => expect(p.getByTestId("inbox-item").first()).toBeVisible(),
  },
  {
    name: "sign-in",
    as: "anonymous",
    path: () => "/sign-in",
    ready: (p) => expect(p.getByRole("button", { name: "Sign in" })).toBeVisible(),
  },
  {
    name: "agents",
    route: "app/agents/page.tsx",
    as: "admin",
    path: () => "/agents",
    ready: (p) => expect(p.getByTestId("agents-list")).toBeVisible(),
  },
  { name: "people", route: "app/people/page.tsx", as: "admin", path: () => "/people", ready: heading },
  { name: "account", route: "app/account/page.tsx", as: "admin", path: () => "/account", ready: heading },
  {
    name: "notifications",
    route: "app/notifications/page.tsx",
    as: "admin",
    path: () => "/notifications",
    ready: async (p) => {
      await heading(p);
      await expect(p.getByTestId("this-device-push")).not.toHaveAttribute("data-state", "checking");
    },
  },
  {
    name: "invite (bad token)",
    route: "app/invite/[token]/page.tsx",
    as: "anonymous",
    path: () => "/invite/not-a-real-token",
    ready: heading,
  },
];

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n${v.nodes
          .slice(0, 5)
          .map((n) => `  ${n.target.join(" ")} — ${n.failureSummary?.split("\n").slice(1).join(" ")}`)
          .join("\n")}`,
    );
}

// Pages whose route is not in this checkout (yet) are left out, not skipped.
for (const c of PAGES.filter((p) => !p.route || existsSync(join(process.cwd(), p.route)))) {
  test(`a11y: ${c.name}`, async ({ browser, request }) => {
    const pod = await seedRichPod(request);
    let person: Person | null = null;
    if (c.as === "admin") person = await createPerson(request, pod.id, "admin");
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ colorScheme });
      if (person) await signIn(context, person);
      const page = await context.newPage();
      await page.goto(c.path({ podId: pod.id }));
      await c.ready(page);
      expect.soft(await seriousViolations(page), `${c.name}, ${colorScheme}`).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      await c.ready(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect
        .soft(width, `${c.name}, ${colorScheme}: the page scrolls sideways at 390 px`)
        .toBeLessThanOrEqual(390);
      expect.soft(await seriousViolations(page), `${c.name}, ${colorScheme}, 390 px`).toEqual([]);
      await context.close();
    }
  });
}
