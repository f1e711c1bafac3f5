// A big inbox a person can work in: 200 open items over three pods (198 escalations from two agents,
// and two tool calls held from Claude Code and Codex through their hook doors), grouped by pod,
// agent or kind with each group's count over the whole inbox, filtered, searched and paged, the
// view kept in the URL; answering an item and a new one arriving change the counts live. At 1280
// and 390 px, light and dark: axe clean, nothing scrolls sideways, the page's height stays bounded.
import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { test, expect as base, adminPost, createPerson, createPod, postEvents, signIn, ev } from "./fixtures";

// The waits are for a whole inbox's read and its live re-reads on a machine other specs load too.
const expect = base.configure({ timeout: 30_000 });
const PODS = [90, 60, 48];
const fixture = (file: string) =>
  JSON.parse(readFileSync(join(process.cwd(), "server", "hooks", "fixtures", file), "utf8")) as object;
const policy = {
  rules: [{ id: "bash", tool: "Bash", input: "*", action: "ask" }],
  ask: { minutes: 30, then: "deny" },
  unreachable: "closed",
};
const tag = (i: number) => `#${String(i).padStart(3, "0")}`;

async function seed(request: APIRequestContext) {
  const pods = [];
  let n = 0;
  for (const count of PODS) {
    const pod = await createPod(request);
    await postEvents(request, pod.id, [
      ev("member.joined", "admin", { memberId: "planner", kind: "agent", displayName: "Planner" }),
      ev("member.joined", "admin", { memberId: "builder", kind: "agent", displayName: "Builder" }),
      ...Array.from({ length: count }, () => {
        const i = n++;
        return ev("escalation", i % 2 ? "builder" : "planner", {
          escalationId: `q-${i}`,
          kind: "intent",
          question: `Question ${tag(i)}: may the ${["billing", "search", "reports"][i % 3]} module keep its old API?`,
          options: ["Yes", "No"],
        });
      }),
    ]);
    pods.push(pod);
  }
  return pods;
}

/** A held Bash call from `agent`'s hook door (the request stays open until a person answers). */
async function holdCall(
  request: APIRequestContext,
  baseURL: string,
  podId: string,
  agent: "claude" | "codex",
) {
  await adminPost(request, `/api/v1/pods/${podId}/members`, {
    memberId: agent,
    kind: "agent",
    displayName: agent === "claude" ? "Claude Code" : "Codex",
    roles: ["implementer"],
  });
  const { token } = await adminPost(request, `/api/v1/pods/${podId}/members/${agent}/tokens`, {
    label: "e2e",
  });
  await adminPost(request, `/api/v1/pods/${podId}/events`, ev("agent.policy.set", "ops-admin", policy));
  const door = agent === "claude" ? "claude-code" : "codex";
  const payload = fixture(agent === "claude" ? "pre-tool-use-bash.json" : "codex/pre-tool-use-bash.json");
  const abort = new AbortController();
  const answer = fetch(`${baseURL}/api/v1/hooks/${door}?wait=600`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(payload),
    signal: abort.signal,
  }).then((r) => r.json() as Promise<unknown>);
  answer.catch(() => {});
  return { answer, abort };
}

const group = (page: Page, key: string) => page.locator(`[data-testid="inbox-group"][data-group="${key}"]`);
const countOf = (page: Page, key: string) => group(page, key).getByTestId("inbox-group-count");

async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

test("200 open items: grouped, filtered, searched and paged, counts live; 1280 and 390 px, light and dark", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const [a, b, c] = await seed(request);
  const held = [
    await holdCall(request, baseURL!, a!.id, "claude"),
    await holdCall(request, baseURL!, b!.id, "codex"),
  ];
  const person = await createPerson(request, a!.id, "approver");
  for (const pod of [b!, c!])
    await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
      memberId: person.email,
      kind: "human",
      displayName: "An approver",
      roles: ["approver"],
    });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await signIn(context, person);
    const page = await context.newPage();
    await page.goto("/inbox");
    await expect(page.getByTestId("inbox-summary")).toContainText("200 waiting");

    // By pod (the default): each group's count is the whole pod's, a page of 10 shown.
    await expect(countOf(page, a!.id)).toContainText("91");
    await expect(countOf(page, b!.id)).toContainText("61");
    await expect(countOf(page, c!.id)).toContainText("48");
    await expect(page.getByTestId("inbox-item")).toHaveCount(30);
    await group(page, a!.id).getByTestId("inbox-group-more").click();
    await expect(group(page, a!.id).getByTestId("inbox-item")).toHaveCount(35);
    await group(page, a!.id).getByRole("button", { expanded: true }).click();
    await expect(group(page, a!.id).getByTestId("inbox-item")).toHaveCount(0);
    await expect(countOf(page, a!.id)).toContainText("91");

    // By kind and by agent: the held calls of two agent kinds apart from the escalations.
    await page.getByLabel("Group by").selectOption("kind");
    await expect(countOf(page, "tool_approval")).toContainText("2");
    await expect(countOf(page, "escalation")).toContainText("198");
    await page.getByLabel("Group by").selectOption("agent");
    for (const [agent, n] of [
      ["planner", 99],
      ["builder", 99],
      ["claude", 1],
      ["codex", 1],
    ] as const)
      await expect(countOf(page, agent)).toContainText(String(n));

    // Filter and search find one item; the URL keeps the view across a reload.
    await page.getByLabel("Pod", { exact: true }).selectOption(b!.id);
    await page.getByTestId("inbox-search").fill(tag(137));
    await expect(page.getByTestId("inbox-item")).toHaveCount(1);
    await expect(page.getByTestId("inbox-item")).toContainText(`Question ${tag(137)}`);
    await expect(page.getByTestId("inbox-summary")).toContainText("1 of 200 match");
    await page.reload();
    await expect(page.getByTestId("inbox-item")).toHaveCount(1);
    expect(new URL(page.url()).searchParams.get("q")).toBe(tag(137));
    await page.getByTestId("inbox-search").fill("no such question");
    await expect(page.getByText("No item matches these filters.")).toBeVisible();
    await page.getByRole("button", { name: "Clear filters" }).first().click();
    await expect(page.getByTestId("inbox-summary")).toContainText("200 waiting");

    // Answering in a group, and a new item arriving, change the counts without a reload.
    await page.getByLabel("Group by").selectOption("pod");
    const first = group(page, c!.id).getByTestId("inbox-item").first();
    await expect(first).toContainText(`Question ${tag(150)}`);
    await first.getByRole("button", { name: "Yes" }).click();
    await expect(countOf(page, c!.id)).toContainText("47");
    await expect(page.getByTestId("inbox-summary")).toContainText("199 waiting");
    await page.getByLabel("Kind", { exact: true }).selectOption("tool_approval");
    await expect(page.getByTestId("inbox-item")).toHaveCount(2);
    await page.getByTestId("inbox-item").first().getByRole("button", { name: "Allow once" }).click();
    await expect(page.getByTestId("inbox-item")).toHaveCount(1);
    expect(JSON.stringify(await Promise.race(held.map((h) => h.answer)))).toContain("allow");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page.getByTestId("inbox-summary")).toContainText("198 waiting");
    await postEvents(request, c!.id, [
      ev("escalation", "planner", { escalationId: "q-new", kind: "intent", question: "A new question?" }),
    ]);
    await expect(countOf(page, c!.id)).toContainText("48");
    await context.close();

    for (const colorScheme of ["light", "dark"] as const)
      for (const width of [1280, 390]) {
        const ctx = await browser.newContext({ colorScheme, viewport: { width, height: 844 } });
        await signIn(ctx, person);
        const p = await ctx.newPage();
        await p.goto("/inbox");
        await expect(p.getByTestId("inbox-item")).toHaveCount(30);
        const size = await p.evaluate(() => ({
          width: document.documentElement.scrollWidth,
          height: document.documentElement.scrollHeight,
        }));
        expect.soft(size.width, `${colorScheme}, ${width} px: scrolls sideways`).toBeLessThanOrEqual(width);
        // 30 cards of 200 items: about 8,500 px at 1280 and 9,400 at 390 (a flat list of all was 64,000).
        expect.soft(size.height, `${colorScheme}, ${width} px: page height`).toBeLessThan(12_000);
        expect.soft(await seriousViolations(p), `${colorScheme}, ${width} px`).toEqual([]);
        await ctx.close();
      }
  } finally {
    for (const h of held) h.abort.abort();
  }
});
