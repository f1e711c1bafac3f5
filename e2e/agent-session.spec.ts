// A whole Claude Code session, fed as Claude Code's http hooks send it (the recorded payloads of
// server/hooks/fixtures, POSTed to the real hook route with an agent token), seen in the browser:
// the tape folds the turn's tool calls into one row that expands to each call, and the Sessions
// tab shows the session and its counts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect, createPod, createPerson, adminPost, signIn } from "./fixtures";

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(process.cwd(), "server/hooks/fixtures", `${name}.json`), "utf8"));

/** Posts one hook input to the hook route as Claude Code's http hook does; answers Claude Code's hook output. */
async function hook(request: APIRequestContext, token: string, input: Record<string, unknown>) {
  const res = await request.post("/api/v1/hooks/claude-code", {
    headers: { authorization: `Bearer ${token}` },
    data: input,
  });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

test("a Claude Code session reported by its hooks shows as one turn on the tape and in the Sessions tab", async ({
  page,
  context,
  request,
}) => {
  const pod = await createPod(request);
  await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
    memberId: "claude",
    kind: "agent",
    displayName: "Claude Code",
    roles: ["implementer"],
  });
  const { token } = await adminPost(request, `/api/v1/pods/${pod.id}/members/claude/tokens`, {
    label: "hooks",
  });
  // Claude Code sends a PreToolUse before every call, the failed lint included.
  const failure = fixture("post-tool-use-failure");
  const preLint = {
    ...fixture("pre-tool-use-bash"),
    tool_use_id: failure.tool_use_id,
    tool_input: failure.tool_input,
  };

  for (const name of ["session-start", "user-prompt-submit", "pre-tool-use-read", "post-tool-use-read"])
    expect(await hook(request, token, fixture(name))).toEqual({});
  await signIn(context, await createPerson(request, pod.id, "viewer"));
  await page.goto(`/pods/${pod.id}?tab=tape`);
  await expect(page.getByTestId("connection-state")).toHaveAttribute("data-state", "live");
  const turn = page.getByTestId("tape-turn");
  await expect(turn).toHaveCount(1);
  await expect(turn.getByTestId("turn-summary")).toHaveText(/^Turn · 1 tool call \(Read 1\) · .* · running$/);
  await expect(turn).toContainText("Add pagination to GET /orders");

  // The rest of the turn arrives live: the open turn grows, then the Stop's checkpoint ends it.
  for (const input of [
    fixture("pre-tool-use-bash"),
    fixture("post-tool-use-bash"),
    preLint,
    failure,
    fixture("notification"),
    fixture("stop-checkpoint"),
    fixture("session-end"),
  ])
    expect(await hook(request, token, input)).toEqual({});
  await expect(turn.getByTestId("turn-summary")).toHaveText(
    /^Turn · 3 tool calls \(Bash 2, Read 1\) · 1 failed · \d+( ms|s)$/,
  );
  await expect(page.getByTestId("tape-call")).toHaveCount(0);
  await expect(
    page.getByTestId("tape-event").filter({ hasText: "GET /orders takes page and pageSize" }),
  ).toBeVisible(); // the checkpoint
  await expect(
    page.getByTestId("tape-event").filter({ hasText: "Session ended (prompt_input_exit)" }),
  ).toBeVisible();
  await expect(
    page.getByTestId("tape-event").filter({ hasText: "Session started (claude-code" }),
  ).toBeVisible();

  // Expanded (with the keyboard too): each call once, pre and post joined, with its outcome.
  const toggle = turn.getByRole("button", { expanded: false });
  await toggle.click();
  await expect(turn.getByRole("button", { expanded: true })).toBeFocused();
  const calls = page.getByTestId("tape-call");
  await expect(calls).toHaveCount(3);
  await expect(calls.nth(0)).toContainText("Read");
  await expect(calls.nth(0)).toContainText("✓ ok");
  await expect(calls.nth(1)).toContainText("npm test");
  await expect(calls.nth(2)).toContainText("npm run lint");
  await expect(calls.nth(2)).toContainText("✗ failed");
  await expect(
    page.getByTestId("tape-event").filter({ hasText: "Claude needs your permission to use Bash" }),
  ).toBeVisible(); // the notification, inside the turn
  await page.keyboard.press("Enter");
  await expect(calls).toHaveCount(0);
  await expect(turn.getByRole("button", { expanded: false })).toBeFocused();
  await page.keyboard.press("Space");
  await expect(calls).toHaveCount(3);

  // One row per event again when grouping is off.
  await page.getByLabel("Group agent turns").uncheck();
  await expect(page.getByTestId("tape-turn")).toHaveCount(0);
  await expect(page.getByTestId("tape-event").filter({ hasText: "Bash failed" })).toBeVisible();
  await page.getByLabel("Group agent turns").check();

  // A subagent of the session starts and stops: it opens and closes a session of its own.
  for (const name of ["subagent-start", "subagent-stop"])
    expect(await hook(request, token, fixture(name))).toEqual({});
  await page.getByRole("tab", { name: "sessions" }).click();
  // The session, and its subagent's (the fixtures' SubagentStart and SubagentStop) nested under it.
  await expect(page.getByTestId("session")).toHaveCount(2);
  const session = page.locator(
    '[data-testid="session"][data-session="5f2b8c1e-9a47-4d3b-b6a2-7c0e1d9f4a31"]',
  );
  const subagent = page.getByRole("list", {
    name: "Subagents of session 5f2b8c1e-9a47-4d3b-b6a2-7c0e1d9f4a31",
  });
  await expect(subagent.getByTestId("session")).toContainText("subagent: Explore");
  await expect(subagent.getByTestId("session")).toContainText("ended");
  await expect(session).toContainText("Claude Code");
  await expect(session).toContainText("ended");
  await expect(session).toContainText("claude-sonnet-4-5-20250929");
  await expect(session).toContainText("/home/dev/shop-api");
  await expect(session.getByTestId("session-prompts")).toContainText("1");
  await expect(session.getByTestId("session-tool-calls")).toContainText("3");
  await expect(session.getByTestId("session-failed")).toContainText("1");
});

test("the Sessions tab says how to connect Claude Code while no session has reported", async ({
  page,
  context,
  request,
}) => {
  const pod = await createPod(request);
  await signIn(context, await createPerson(request, pod.id, "viewer"));
  await page.goto(`/pods/${pod.id}?tab=sessions`);
  await expect(page.getByText("No agent sessions yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "connect Claude Code" })).toHaveAttribute(
    "href",
    "?tab=members",
  );
});
