// Signals in the browser: agents report reviews, checkpoints and usage with their own
// tokens through the real API; the pod's Signals tab shows the per-agent table (sortable from the
// keyboard) and the charts' captions, updates live, and reads at phone width in light and dark; the
// Agents page lists each agent across the person's pods, filters by pod and agent and links the
// export; a period (the last 24 hours) is recomputed by the server and kept in the URL.
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { test, expect, createPod, createPerson, adminPost, postEvents, signIn, ev } from "./fixtures";

type Agent = { id: string; token: string };

async function addAgent(
  request: APIRequestContext,
  podId: string,
  id: string,
  displayName: string,
  role: string,
): Promise<Agent> {
  await adminPost(request, `/api/v1/pods/${podId}/members`, {
    memberId: id,
    kind: "agent",
    displayName,
    roles: [role],
  });
  const { token } = (await adminPost(request, `/api/v1/pods/${podId}/members/${id}/tokens`, {
    label: "e2e",
  })) as { token: string };
  return { id, token };
}

/** An agent posts its own events with its own token, as an agent in a pod does. */
async function report(
  request: APIRequestContext,
  podId: string,
  agent: Agent,
  events: { type: string; body: object; sessionId?: string }[],
) {
  const res = await request.post(`/api/v1/pods/${podId}/events`, {
    data: {
      events: events.map((e) => ev(e.type, agent.id, e.body, e.sessionId ? { sessionId: e.sessionId } : {})),
    },
    headers: { authorization: `Bearer ${agent.token}` },
  });
  expect(res.status(), await res.text()).toBe(201);
}

const usage = (costUsd: number, inputTokens: number) => ({
  type: "usage.reported",
  sessionId: "s-impl",
  body: { model: "claude-sonnet-4-5", inputTokens, outputTokens: 100, costUsd, source: "transcript" },
});

/** Pod A: t1 approved after one review, t2 sent back then rejected by the approver, t3's review a reject; two checkpoints on cadence; $2.20 of usage under a $5 budget. */
async function seedPodA(request: APIRequestContext) {
  const pod = await createPod(request);
  const impl = await addAgent(request, pod.id, "impl", "Implementer", "implementer");
  const rev = await addAgent(request, pod.id, "rev", "Reviewer", "reviewer");
  await postEvents(request, pod.id, [
    ev("pod.scope_agreed", "admin", { scope: "Ship the login endpoint", successCriteria: ["tests pass"] }),
    ev("pod.started", "admin", {}),
    ev("budget.set", "admin", { budgetId: "b-cost", metric: "cost_usd", limit: 5 }),
  ]);
  const task = (taskId: string) => [
    { type: "task.added", body: { taskId, description: `Task ${taskId}` } },
    { type: "task.updated", body: { taskId, status: "in_progress" } },
  ];
  const approver = await createPerson(request, pod.id, "approver");
  const decide = (taskId: string, verdict: "approve" | "reject") =>
    postEvents(request, pod.id, [
      ev("decision", approver.email, {
        subject: { kind: "task", id: taskId },
        verdict,
        rationale: "Decided by the approver",
        evidenceIds: [],
      }),
    ]);
  await report(request, pod.id, impl, [
    ...task("t1"),
    { type: "checkpoint", body: { completed: ["t1 drafted"], next: ["review"], blocked: [] } },
    usage(1.25, 10_000),
    { type: "task.review_requested", body: { taskId: "t1" } },
  ]);
  await report(request, pod.id, rev, [
    { type: "review", body: { taskId: "t1", verdict: "approve", comments: "Verified" } },
  ]);
  await decide("t1", "approve");
  await report(request, pod.id, impl, [
    ...task("t2"),
    { type: "task.review_requested", body: { taskId: "t2" } },
  ]);
  await report(request, pod.id, rev, [
    {
      type: "review",
      body: { taskId: "t2", verdict: "changes_requested", comments: "Missing the rate limit" },
    },
  ]);
  await report(request, pod.id, impl, [
    { type: "checkpoint", body: { completed: ["rate limit"], next: ["review"], blocked: [] } },
    usage(0.95, 5_000),
    { type: "task.review_requested", body: { taskId: "t2" } },
  ]);
  await decide("t2", "reject");
  await report(request, pod.id, impl, [
    ...task("t3"),
    { type: "task.review_requested", body: { taskId: "t3" } },
  ]);
  await report(request, pod.id, rev, [
    { type: "review", body: { taskId: "t3", verdict: "reject", comments: "Wrong approach" } },
  ]);
  return { pod, impl, rev };
}

/** The pod page with its live subscription up (the tape tab shows it), then its Signals tab. */
async function openLive(page: Page, podId: string) {
  await page.goto(`/pods/${podId}?tab=tape`);
  // A first load on a busy machine takes its time.
  await expect(page.getByTestId("connection-state")).toHaveAttribute("data-state", "live", {
    timeout: 30_000,
  });
  await page.getByRole("tab", { name: "signals" }).click();
  await expect(page.getByRole("tab", { name: "signals", selected: true })).toBeVisible();
}

/** No sideways page scroll at 390 px; the charts still drew something. */
async function fitsAPhone(page: Page) {
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize(size);
}

async function noSeriousAxe(page: Page, selector: string) {
  const { violations } = await new AxeBuilder({ page }).include(selector).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

test("the Signals tab shows each agent's signals and the charts in words; the Agents page lists agents across pods", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(150_000); // eight axe runs over a wide table
  const { pod, impl } = await seedPodA(request);
  const podB = await createPod(request);
  const implB = await addAgent(request, podB.id, "impl", "Implementer", "implementer");
  const person = await createPerson(request, pod.id, "viewer");
  await adminPost(request, `/api/v1/pods/${podB.id}/members`, {
    memberId: person.email,
    kind: "human",
    displayName: "A viewer",
    roles: ["viewer"],
  });
  await signIn(context, person);

  // Pod B has no signals yet: the empty state, then the agent's usage arrives live (the page's
  // one live subscription is up once the tape tab says so; the Signals tab refetches on it).
  await openLive(page, podB.id);
  await expect(
    page.getByText("No signals yet — reviews, checkpoints and usage appear as agents report."),
  ).toBeVisible();
  await report(request, podB.id, implB, [usage(0.5, 2_000)]);
  await expect(page.getByTestId("chart-cost-caption")).toHaveText("$0.50 spent; no cost budget set.");

  await openLive(page, pod.id);
  const rows = page.getByTestId("signals-row");
  await expect(rows).toHaveCount(2, { timeout: 30_000 }); // a first load on a busy machine
  const implRow = rows.filter({ has: page.getByRole("rowheader", { name: "Implementer" }) });
  // A cell's figure, and the counts behind it (its title for a mouse, in the cell for everyone else).
  const figure = (row: typeof rows, col: string) =>
    row.locator(`[data-col="${col}"]`).getByTestId("signal-value");
  const approval = implRow.locator('[data-col="approval"]');
  const approvalCounts = "1 approved of 2 decided; 1 rejected, 1 changes requested, 0 reversals";
  await expect(figure(implRow, "approval")).toHaveText("50%");
  await expect(approval).toHaveAttribute("title", approvalCounts);
  await expect(approval.getByTestId("signal-counts")).toHaveText(approvalCounts);
  await expect(approval.getByTestId("signal-counts")).toHaveCSS("position", "absolute"); // visually hidden until asked for
  await expect(figure(implRow, "cadence")).toHaveText("100%");
  await expect(figure(implRow, "cost")).toHaveText("$2.20");
  const revRow = rows.filter({ has: page.getByRole("rowheader", { name: "Reviewer" }) });
  await expect(figure(revRow, "reviews")).toHaveText("3");
  await expect(revRow.locator('[data-col="reviews"]')).toHaveAttribute(
    "title",
    "1 approve, 1 changes requested, 1 reject",
  );
  await expect(figure(revRow, "rigor")).toHaveText("67%");
  await expect(figure(revRow, "approval")).toHaveText("—");
  await fitsAPhone(page); // the hidden counts stay inside the table's own sideways scroll
  // Without a mouse to hover: the counts shown under each figure on request.
  await page.getByLabel("Show the counts behind each figure").check();
  await expect(revRow.locator('[data-col="reviews"]').getByTestId("signal-counts")).toHaveText(
    "1 approve, 1 changes requested, 1 reject",
  );
  await expect(approval.getByTestId("signal-counts")).toHaveCSS("position", "static");
  await expect(approval.getByTestId("signal-counts")).toBeVisible();
  // The budgets read as on the Budgets panel and the inbox card.
  await expect(page.getByTestId("signals-budgets")).toContainText("b-cost · whole pod: 2.20 USD of 5.00 USD");

  // Sorting from the keyboard: Enter on a column header sorts by it, again turns it round.
  const reviewsHeader = page.getByRole("columnheader", { name: "Reviews" });
  await reviewsHeader.getByRole("button", { name: "Reviews", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(reviewsHeader).toHaveAttribute("aria-sort", "descending");
  await expect(rows.first().getByRole("rowheader")).toHaveText("Reviewer");
  await page.keyboard.press("Enter");
  await expect(reviewsHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(rows.first().getByRole("rowheader")).toHaveText("Implementer");

  // The charts: named figures whose captions say the numbers.
  await expect(page.getByRole("figure", { name: "Cost burn-down" })).toBeVisible();
  await expect(page.getByTestId("chart-cost-caption")).toHaveText("$2.20 of $5.00 (budget b-cost).");
  await expect(page.getByTestId("chart-reviews-caption")).toHaveText(
    /^3 reviews over \d+ days?: 1 approve, 1 changes requested, 1 reject\.$/,
  );
  await expect(page.getByTestId("chart-cadence-caption")).toHaveText(
    "Implementer: 2 on time, 0 late, 0 staleness episodes.",
  );
  await expect(
    page.getByRole("figure", { name: "Checkpoint cadence" }).locator("svg.recharts-surface").first(),
  ).toBeVisible();

  // Live: a new usage report moves the burn-down without a reload.
  await report(request, pod.id, impl, [usage(1.3, 4_000)]);
  await expect(page.getByTestId("chart-cost-caption")).toHaveText("$3.50 of $5.00 (budget b-cost).");
  await expect(figure(implRow, "cost")).toHaveText("$3.50");

  // A period: the last 24 hours, recomputed by the server over a window that ends on a whole minute
  // (every event here is recent, so the figures are the same), and kept in the URL over a reload.
  const periodCaption = page.getByTestId("signals-period-caption");
  await expect(periodCaption).toHaveText("Counting all time");
  const windowAsked = page.waitForRequest(
    (r) =>
      new URL(r.url()).pathname === `/api/v1/pods/${pod.id}/signals` &&
      new URL(r.url()).searchParams.has("from"),
  );
  await page.getByRole("combobox", { name: "Period" }).selectOption({ label: "Last 24 hours" });
  const asked = new URL((await windowAsked).url()).searchParams;
  const [from, to] = [Date.parse(asked.get("from")!), Date.parse(asked.get("to")!)];
  expect(to - from).toBe(86_400_000);
  expect(to % 60_000).toBe(0);
  await expect.poll(() => new URL(page.url()).search).toBe("?tab=signals&period=24h");
  await expect(periodCaption).toHaveText("Counting the last 24 hours");
  await expect(page.getByRole("region", { name: "Signals per agent, last 24 hours" })).toBeVisible();
  await expect(figure(implRow, "cost")).toHaveText("$3.50");
  await expect(figure(implRow, "approval")).toHaveText("50%");
  await expect(figure(revRow, "reviews")).toHaveText("3");
  await expect(page.getByTestId("chart-cost-caption")).toHaveText("$3.50 of $5.00 (budget b-cost).");
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Period" })).toHaveValue("24h");
  await expect(periodCaption).toHaveText("Counting the last 24 hours");
  await expect(figure(implRow, "cost")).toHaveText("$3.50", { timeout: 30_000 }); // a reload recomputes
  // … and over a visit to another tab.
  await page.getByRole("tab", { name: "board", exact: true }).click();
  await expect.poll(() => new URL(page.url()).search).toBe("?tab=board&period=24h");
  await page.getByRole("tab", { name: "signals", exact: true }).click();
  await expect(page.getByRole("combobox", { name: "Period" })).toHaveValue("24h");

  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await noSeriousAxe(page, '[data-testid="signals-panel"]'), colorScheme).toEqual([]);
    await fitsAPhone(page);
  }
  await page.emulateMedia({ colorScheme: null });

  // The Agents page, from the navigation: impl once, with a row for each of its two pods.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
  const implCard = page.getByTestId("agent-signals").and(page.locator('[data-agent="impl"]'));
  await expect(implCard.getByTestId("agent-pod-row")).toHaveCount(2);
  await expect(implCard.getByTestId("agent-pod-row").filter({ hasText: pod.name })).toContainText("$3.50");
  await expect(implCard.getByTestId("agent-pod-row").filter({ hasText: podB.name })).toContainText("$0.50");
  await expect(implCard.getByRole("img", { name: /^Cost per day/ })).toBeVisible();
  // Every figure of the pod's table, across the pods: impl's cost is both pods' added up.
  const across = page.getByRole("region", { name: "Signals per agent across your pods" });
  const implAcross = across.getByTestId("signals-row").and(page.locator('[data-agent="impl"]'));
  await expect(implAcross.locator('[data-col="cost"]').getByTestId("signal-value")).toHaveText("$4.00");
  await expect(implAcross.locator('[data-col="approval"]')).toHaveAttribute("title", approvalCounts);
  await expect(
    across.getByTestId("signals-row").and(page.locator('[data-agent="rev"]')).locator('[data-col="reviews"]'),
  ).toContainText("3");

  // Filtered by pod B: only its agent; the CSV link exports that pod.
  await page.getByRole("combobox", { name: "Pod" }).selectOption({ label: podB.name });
  await expect(page.getByTestId("agent-signals")).toHaveCount(1);
  await expect(implCard.getByTestId("agent-pod-row")).toHaveCount(1);
  const csvHref = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
  expect(csvHref).toBe(`/api/v1/signals?pod=${encodeURIComponent(podB.id)}&format=csv`);
  const csv = await page.request.get(csvHref!);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(podB.id);

  // Filtered by agent across every pod: only the reviewer's card; both downloads carry agent=rev.
  await page.getByRole("combobox", { name: "Pod" }).selectOption("");
  await expect(page.getByTestId("agent-signals")).toHaveCount(2);
  await page.getByRole("combobox", { name: "Agent" }).selectOption({ label: "Reviewer (rev)" });
  await expect(page.getByTestId("agent-signals")).toHaveCount(1);
  await expect(page.getByTestId("agent-signals").and(page.locator('[data-agent="rev"]'))).toBeVisible();
  expect(await page.getByRole("link", { name: "Download CSV" }).getAttribute("href")).toBe(
    "/api/v1/signals?agent=rev&format=csv",
  );
  const jsonHref = await page.getByRole("link", { name: "Download JSON" }).getAttribute("href");
  expect(jsonHref).toBe("/api/v1/signals?agent=rev");
  const json = (await (await page.request.get(jsonHref!)).json()) as {
    rows: { agentId: string; podId: string }[];
  };
  expect(json.rows.map((r) => [r.agentId, r.podId])).toEqual([["rev", pod.id]]);

  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await noSeriousAxe(page, "main"), colorScheme).toEqual([]);
    await fitsAPhone(page);
  }
});

/** Pod C: the chair rejects t1 after the reviewer approved it (a reversal); an approver approves t2. */
async function seedDecisions(request: APIRequestContext) {
  const pod = await createPod(request);
  const chair = await addAgent(request, pod.id, "chair", "Chair", "chair");
  const impl = await addAgent(request, pod.id, "impl", "Implementer with a long display name", "implementer");
  const rev = await addAgent(request, pod.id, "rev", "Reviewer", "reviewer");
  await postEvents(request, pod.id, [
    ev("pod.scope_agreed", "admin", { scope: "Ship the login endpoint", successCriteria: ["tests pass"] }),
    ev("pod.started", "admin", {}),
  ]);
  const approver = await createPerson(request, pod.id, "approver");
  const decision = (taskId: string, verdict: string, rationale: string) => ({
    subject: { kind: "task", id: taskId },
    verdict,
    rationale,
    evidenceIds: [],
  });
  for (const taskId of ["t1", "t2"]) {
    await report(request, pod.id, impl, [
      { type: "task.added", body: { taskId, description: `Task ${taskId}` } },
      { type: "task.updated", body: { taskId, status: "in_progress" } },
      { type: "task.review_requested", body: { taskId } },
      usage(0.4, 3_000),
    ]);
    await report(request, pod.id, rev, [
      { type: "review", body: { taskId, verdict: "approve", comments: "ok" } },
    ]);
  }
  await report(request, pod.id, chair, [
    { type: "decision", body: decision("t1", "reject", "Out of scope for this pod") },
  ]);
  const [approved] = await postEvents(request, pod.id, [
    ev("decision", approver.email, decision("t2", "approve", "Verified by the approver")),
  ]);
  return { pod, approver, approvedSeq: approved!.seq };
}

test("signals a lead can read: a sticky agent column, reversals and decisions, each figure explained; /agents the same", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(150_000); // eight axe runs over a wide table
  const { pod, approver, approvedSeq } = await seedDecisions(request);
  await signIn(context, approver);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/pods/${pod.id}?tab=signals`);
  const implRow = page.getByTestId("signals-row").and(page.locator('[data-agent="impl"]'));
  await expect(implRow).toBeVisible({ timeout: 30_000 }); // a first load on a busy machine
  await expect(implRow.locator('[data-col="reversals"]').getByTestId("signal-value")).toHaveText("1");
  await expect(implRow.locator('[data-col="reversals"]')).toHaveAttribute(
    "title",
    "1 of 1 rejected tasks had a reviewer's approval",
  );

  // At 390 px the table scrolls inside its box (keyboard-focusable, named), says so, and the agent
  // column stays in view while the figures pass under it.
  const table = page.getByRole("region", { name: "Signals per agent" });
  await expect(table).toHaveAttribute("data-scroll-right", "true");
  await expect(page.getByTestId("signals-scroll-hint")).toBeVisible();
  await table.focus();
  await expect(table).toBeFocused();
  const name = implRow.getByRole("rowheader");
  const costCell = implRow.locator('[data-col="cost"]');
  const [boxAt, nameAt] = [await table.boundingBox(), await name.boundingBox()];
  await table.evaluate((el) => (el.scrollLeft = el.scrollWidth));
  await expect(table).toHaveAttribute("data-scroll-left", "true");
  await expect(table).toHaveAttribute("data-scroll-right", "false");
  await expect(costCell).toBeInViewport();
  expect((await name.boundingBox())!.x).toBeCloseTo(nameAt!.x, 0);
  expect(nameAt!.x - boxAt!.x).toBeLessThan(4);
  // The name is drawn on top: the point at its middle is the name, not a figure passing under it.
  const covered = await name.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.closest("th") === el;
  });
  expect(covered).toBe(true);

  // Each figure's meaning one click away, from the keyboard too.
  const explain = page.getByRole("button", { name: "What Reversals means" });
  await explain.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Reversals" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    "Times a reviewer approved this agent's task and the decision then rejected it.",
  );
  await expect(dialog).toContainText("How it is counted:");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // The decisions: how many, by whom, the latest first, each a link to its place on the tape.
  const decisions = page.getByTestId("signals-decisions");
  await expect(decisions.getByTestId("decisions-count")).toHaveText(
    "2 decisions: An approver 1, Chair (chair) 1",
  );
  await expect(decisions.getByTestId("decision").first()).toContainText("approve task t2");
  await expect(decisions.getByTestId("decision").first()).toContainText("Verified by the approver");
  await expect(decisions.getByTestId("decision").nth(1)).toContainText("reject task t1");
  await page.getByRole("button", { name: "What Decisions means" }).click();
  await expect(page.getByRole("dialog", { name: "Decisions" })).toBeVisible();
  await page.getByRole("dialog", { name: "Decisions" }).getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("dialog", { name: "Decisions" })).toBeHidden();

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await noSeriousAxe(page, '[data-testid="signals-panel"]'), `${width} ${colorScheme}`).toEqual(
        [],
      );
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  await page.emulateMedia({ colorScheme: null });

  await decisions.getByRole("link", { name: `#${approvedSeq} on the tape` }).click();
  await expect.poll(() => new URL(page.url()).search).toBe(`?tab=tape&seq=${approvedSeq}`);
  await page.goto(`/pods/${pod.id}?tab=signals`);
  await page.getByRole("button", { name: "Show every decision on the tape" }).click();
  await expect(page.getByRole("tab", { name: "tape", selected: true })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Type" })).toHaveValue("decision");

  // /agents: the same families of figures as the pod's tab, a trend per agent, explanations.
  await page.goto("/agents");
  await page.getByRole("combobox", { name: "Pod" }).selectOption({ label: pod.name });
  const across = page.getByRole("region", { name: "Signals per agent in this pod" });
  for (const family of ["Implementer", "Reviewer", "Cadence", "Escalations", "Contracting", "Usage"])
    await expect(across.getByRole("columnheader", { name: family, exact: true })).toBeVisible();
  for (const figure of ["Reversals", "Evidence pass", "Raised", "Jobs accepted", "Cost per day"])
    await expect(across.getByRole("button", { name: `What ${figure} means` })).toBeAttached();
  const implAcross = across.getByTestId("signals-row").and(page.locator('[data-agent="impl"]'));
  await expect(implAcross.locator('[data-col="reversals"]').getByTestId("signal-value")).toHaveText("1");
  await expect(
    implAcross.getByRole("img", { name: /^Cost per day on \d{4}-\d\d-\d\d: \$0\.80$/ }),
  ).toBeAttached();
  await across.getByRole("button", { name: "What Jobs accepted means" }).click();
  await expect(page.getByRole("dialog", { name: "Jobs accepted" })).toContainText("accepted");
  await page.keyboard.press("Escape");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await noSeriousAxe(page, "main"), `/agents ${width} ${colorScheme}`).toEqual([]);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
});
