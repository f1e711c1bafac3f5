// Budgets that act, end to end: an approver sets a cost budget in the browser that
// holds tools when crossed; a simulated Claude Code session posts its hooks over HTTP and its
// usage through the agent events API (the usage of a real session comes from the command hook's
// transcript reader, which posts the same usage.reported); podwatch appends budget.exceeded once;
// the inbox shows the crossed budget with its numbers; the next PreToolUse is held and the
// person's answer releases it; the Signals tab's cost burn-down names the budget.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect, createPod, createPerson, adminPost, signIn, adminHeaders } from "./fixtures";

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(join(process.cwd(), "server", "hooks", "fixtures", `${name}.json`), "utf8"),
  ) as Record<string, unknown>;

test("a cost budget crossed by a Claude Code session is reported once, holds the agent's next tool call for a person, and shows in the inbox and the charts", async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  const pod = await createPod(request);
  await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
    memberId: "claude",
    kind: "agent",
    displayName: "Claude Code",
    roles: ["implementer"],
  });
  const { token } = (await adminPost(request, `/api/v1/pods/${pod.id}/members/claude/tokens`, {
    label: "e2e budgets",
  })) as { token: string };
  const agent = { authorization: `Bearer ${token}` };
  const hook = (r: APIRequestContext, body: object, query = "") =>
    r.post(`/api/v1/hooks/claude-code${query}`, { data: body, headers: agent, timeout: 90_000 });
  const usage = async (costUsd: number) =>
    expect(
      (
        await request.post(`/api/v1/pods/${pod.id}/events`, {
          data: {
            type: "usage.reported",
            actor: "claude",
            body: {
              model: "claude-sonnet-4-5",
              inputTokens: 1000,
              outputTokens: 200,
              costUsd,
              source: "transcript",
            },
          },
          headers: agent,
        })
      ).status(),
    ).toBe(201);
  const events = async () =>
    (
      await (
        await request.get(`/api/v1/pods/${pod.id}/events?after=0&limit=1000`, { headers: adminHeaders })
      ).json()
    ).events as { type: string; seq: number; actor: string; body: Record<string, unknown> }[];
  const exceeded = async () => (await events()).filter((e) => e.type === "budget.exceeded");
  await signIn(context, await createPerson(request, pod.id, "approver"));

  // The approver sets the budget in the browser: checked before anything is sent.
  await page.goto(`/pods/${pod.id}?tab=members&section=budgets`);
  const panel = page.getByTestId("budgets");
  await expect(panel.getByText(/^No budgets/)).toBeVisible();
  await page.getByRole("button", { name: "New budget" }).click();
  const form = page.getByRole("form", { name: "New budget" });
  await form.getByRole("button", { name: "Add budget" }).click();
  await expect(form.getByText("Give the budget a name, e.g. impl-cost")).toBeVisible();
  await expect(form.getByText("Set a limit")).toBeVisible();
  await form.getByLabel("Name").fill("claude-cost");
  // The burn-down draws the pod's cost budgets; Claude Code is the pod's one agent, so the whole pod's hold is its hold.
  await form.getByLabel("Counts").selectOption("");
  await form.getByLabel("Metric").selectOption("cost_usd");
  await form.getByLabel("Limit").fill("-1");
  await form.getByRole("button", { name: "Add budget" }).click();
  await expect(form.getByText("The limit is a number above 0")).toBeVisible();
  await form.getByLabel("Limit").fill("0.50");
  await form.getByLabel("When crossed").selectOption("hold_tools");
  await form.getByRole("button", { name: "Add budget" }).click();
  const budget = panel.getByRole("listitem", { name: "Budget claude-cost" });
  await expect(budget.getByTestId("budget-numbers")).toHaveText("0.00 USD of 0.50 USD");
  await expect(budget.getByRole("progressbar", { name: "Budget claude-cost used" })).toHaveAttribute(
    "aria-valuenow",
    "0",
  );

  // A Claude Code session: its first tool calls go ahead (no rule speaks), its usage crosses the budget.
  expect((await hook(request, fixture("session-start"))).status()).toBe(200);
  expect(
    await (await hook(request, { ...fixture("pre-tool-use-bash"), tool_use_id: "toolu_e2e_1" })).json(),
  ).toEqual({});
  expect((await hook(request, fixture("post-tool-use-bash"))).status()).toBe(200);
  await usage(0.3);
  await usage(0.3);
  await expect.poll(async () => (await exceeded()).length).toBe(1);
  await usage(0.2); // later reports do not report the round again
  await page.waitForTimeout(500);
  const reports = await exceeded();
  // Its round is the seq of the budget.set that armed it (the one the form appended).
  const armed = (await events()).find((e) => e.type === "budget.set" && e.body.budgetId === "claude-cost")!;
  expect(reports).toEqual([
    expect.objectContaining({
      actor: "podwatch",
      body: {
        budget: "claude-cost",
        limit: 0.5,
        used: 0.6,
        metric: "cost_usd",
        then: "hold_tools",
        round: armed.seq,
      },
    }),
  ]);

  // The inbox shows it with the numbers.
  await page.goto(`/pods/${pod.id}?tab=inbox`);
  const card = page.locator('[data-testid="inbox-item"][data-kind="budget"]');
  await expect(card).toBeVisible();
  await expect(
    card.getByText("Budget claude-cost crossed: 0.60 of 0.50 USD; gated tools now ask a person"),
  ).toBeVisible();
  await expect(card.getByTestId("budget-numbers")).toHaveText("0.60 USD of 0.50 USD");
  await expect(card.getByRole("progressbar", { name: "Budget claude-cost used" })).toHaveAttribute(
    "aria-valuenow",
    "100",
  );
  await expect(card.getByTestId("budget-followed")).toHaveText(
    "Each of the agent's tool calls now asks a person first.",
  );
  await expect(card.getByText("Now at 0.80 USD.")).toBeVisible();

  // The next PreToolUse is held: its card names the budget; allowing it releases the hook request.
  const held = hook(request, { ...fixture("pre-tool-use-bash"), tool_use_id: "toolu_e2e_2" }, "?wait=60");
  const heldCard = page.locator('[data-testid="inbox-item"][data-kind="tool_approval"]');
  await expect(heldCard).toBeVisible({ timeout: 20_000 });
  await expect(heldCard.getByTestId("held-call-recent")).toContainText(
    "Budget claude-cost of the pod crossed: 0.60 of 0.50 USD: podwatch asks before each tool call",
  );
  await heldCard.getByRole("button", { name: "Allow once" }).click();
  await expect(heldCard).toHaveCount(0);
  expect((await (await held).json()).hookSpecificOutput).toMatchObject({
    hookEventName: "PreToolUse",
    permissionDecision: "allow",
  });

  // The pod's Signals tab: the cost burn-down against the budget.
  await page.getByRole("tab", { name: "signals" }).click();
  const chart = page.getByRole("figure", { name: "Cost burn-down" });
  await expect(chart).toBeVisible();
  await expect(chart.getByTestId("chart-cost-caption")).toContainText("budget claude-cost");
  await expect(chart.getByTestId("chart-cost-caption")).toContainText("exceeded at");

  // Raised from the card: a new round, the item is settled, the budget is armed again.
  await page.getByRole("tab", { name: "inbox" }).click();
  await card.getByLabel(/New limit/).fill("2");
  await card.getByRole("button", { name: "Raise the limit" }).click();
  await expect(card).toHaveCount(0);
  const after = await (await request.get(`/api/v1/pods/${pod.id}/budgets`, { headers: adminHeaders })).json();
  expect(after.budgets).toEqual([
    expect.objectContaining({ budgetId: "claude-cost", limit: 2, exceeded: null, used: 0.8 }),
  ]);
});

test("a budget made through the API with a space in its name is edited and removed in the browser: removing asks first, the form hands focus back, the inbox card says why it cannot raise", async ({
  page,
  context,
  request,
}) => {
  const pod = await createPod(request);
  await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
    memberId: "impl",
    kind: "agent",
    displayName: "Implementer",
    roles: ["implementer"],
  });
  const { token } = (await adminPost(request, `/api/v1/pods/${pod.id}/members/impl/tokens`, {
    label: "e2e budgets",
  })) as { token: string };
  const put = async (budgetId: string, body: object) =>
    expect(
      (
        await request.put(`/api/v1/pods/${pod.id}/budgets/${encodeURIComponent(budgetId)}`, {
          data: body,
          headers: adminHeaders,
        })
      ).status(),
    ).toBe(200);
  const stored = async () =>
    (
      (await (await request.get(`/api/v1/pods/${pod.id}/budgets`, { headers: adminHeaders })).json()) as {
        budgets: { budgetId: string; limit: number }[];
      }
    ).budgets;
  // The server's id rule allows a space; the form never suggests one, but must still edit it.
  await put("team budget", { metric: "tool_calls", limit: 50 });
  await put("spend cap", { metric: "cost_usd", limit: 0.5, then: "notify" });
  await signIn(context, await createPerson(request, pod.id, "approver"));

  await page.goto(`/pods/${pod.id}?tab=members&section=budgets`);
  const panel = page.getByTestId("budgets");
  const team = panel.getByRole("listitem", { name: "Budget team budget" });
  const edit = team.getByRole("button", { name: "Edit budget team budget" });
  await edit.click();
  const form = page.getByRole("form", { name: "Edit budget team budget" });
  await expect(form.getByLabel("Limit")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(form).toHaveCount(0);
  await expect(edit).toBeFocused();
  await page.keyboard.press("Enter");
  await form.getByLabel("Limit").fill("80");
  await form.getByRole("button", { name: "Save budget" }).click();
  await expect(panel.getByRole("status")).toHaveText("Saved on the tape.");
  await expect(form).toHaveCount(0);
  await expect(edit).toBeFocused();
  await expect(team.getByTestId("budget-numbers")).toHaveText(/ of 80 tool calls$/);
  expect(await stored()).toContainEqual(expect.objectContaining({ budgetId: "team budget", limit: 80 }));

  // A new budget's form, cancelled: focus returns to "New budget".
  const newBudget = page.getByRole("button", { name: "New budget" });
  await newBudget.click();
  await page.getByRole("form", { name: "New budget" }).getByRole("button", { name: "Cancel" }).click();
  await expect(newBudget).toBeFocused();

  // Removing asks first; Escape keeps the budget and returns to the button; "Yes, remove" removes it.
  const remove = team.getByRole("button", { name: "Remove budget team budget" });
  await remove.click();
  const ask = team.getByRole("group", { name: "Confirm removing budget team budget" });
  await expect(ask.getByRole("button", { name: "Yes, remove" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(ask).toHaveCount(0);
  await expect(remove).toBeFocused();
  expect((await stored()).map((b) => b.budgetId)).toContain("team budget");
  await remove.click();
  await ask.getByRole("button", { name: "Yes, remove" }).click();
  await expect(team).toHaveCount(0);
  await expect(panel.getByRole("status")).toHaveText("Budget team budget removed on the tape.");
  expect((await stored()).map((b) => b.budgetId)).toEqual(["spend cap"]);

  // The agent's usage crosses "spend cap": on its inbox card an impossible limit says why Raise is
  // disabled (linked to the field), and removing asks first there too.
  expect(
    (
      await request.post(`/api/v1/pods/${pod.id}/events`, {
        data: {
          type: "usage.reported",
          actor: "impl",
          body: {
            model: "claude-sonnet-4-5",
            inputTokens: 1000,
            outputTokens: 200,
            costUsd: 0.6,
            source: "transcript",
          },
        },
        headers: { authorization: `Bearer ${token}` },
      })
    ).status(),
  ).toBe(201);
  await page.goto(`/pods/${pod.id}?tab=inbox`);
  const card = page.locator('[data-testid="inbox-item"][data-kind="budget"]');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await card.getByLabel(/New limit/).fill("0");
  const why = "Raise the limit is disabled: the limit is a number above 0.";
  await expect(card.getByTestId("raise-blocked")).toHaveText(why);
  await expect(card.getByRole("button", { name: "Raise the limit" })).toBeDisabled();
  await expect(card.getByRole("button", { name: "Raise the limit" })).toHaveAccessibleDescription(why);
  await expect(card.getByLabel(/New limit/)).toHaveAccessibleDescription(why);
  await card.getByRole("button", { name: "Remove the budget" }).click();
  await card
    .getByRole("group", { name: "Confirm removing budget spend cap" })
    .getByRole("button", { name: "Cancel" })
    .click();
  await expect(card.getByRole("button", { name: "Remove the budget" })).toBeFocused();
  await card.getByRole("button", { name: "Remove the budget" }).click();
  await card.getByRole("button", { name: "Yes, remove" }).click();
  await expect(card).toHaveCount(0);
  expect(await stored()).toEqual([]);
});
