// An idle Claude Code session held at its Stop (the agent's idleHold), resumed from the browser:
// Claude Code's exact Stop hook input is POSTed to the real hook route with the agent's token and
// waits; the Sessions tab and Now say the session waits for a person to resume it; opened as a
// notification's tap opens it (/?resume=<session>), Now focuses its message box, and the message
// sent there answers the held hook with the block that carries the agent on.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { test, expect, createPod, createPerson, adminPost, signIn } from "./fixtures";

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(process.cwd(), "server/hooks/fixtures", `${name}.json`), "utf8"));

const hook = (request: APIRequestContext, token: string, input: Record<string, unknown>) =>
  request
    .post("/api/v1/hooks/claude-code", {
      headers: { authorization: `Bearer ${token}` },
      data: input,
      timeout: 180_000,
    })
    .then(async (res) => ({ status: res.status(), body: await res.json() }));

test("a session held idle at its Stop shows it, and a Resume with a message from Now carries it on", async ({
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
  await adminPost(request, `/api/v1/pods/${pod.id}/events`, {
    type: "agent.policy.set",
    actor: "ops-admin",
    body: { rules: [], idleHold: 300 },
  });
  for (const name of ["session-start", "user-prompt-submit"])
    expect(await hook(request, token, fixture(name))).toEqual({ status: 200, body: {} });
  const stop = fixture("stop-note");
  const held = hook(request, token, stop);

  await signIn(context, await createPerson(request, pod.id, "approver"));
  await page.goto(`/pods/${pod.id}?tab=sessions`);
  await expect(page.getByTestId("session").first().getByTestId("steer-held")).toContainText(
    "waiting for you to resume",
  );

  // As a notification's tap opens it: Now, the session's box focused.
  await page.goto(`/?resume=${stop.session_id as string}`);
  const row = page.locator("[data-testid=now-session][data-agent=claude]");
  await expect(row).toHaveAttribute("data-state", "idle");
  await expect(row.getByTestId("now-held-idle")).toHaveText(" · waiting for you to resume");
  const box = row.getByRole("textbox", { name: /^Message to session / });
  await expect(box).toBeFocused();
  await box.fill("Now add paging to the refunds list");
  await row.getByRole("button", { name: "Resume" }).click();

  expect(await held).toEqual({
    status: 200,
    body: { decision: "block", reason: expect.stringContaining("Now add paging to the refunds list") },
  });
  await expect(row.getByTestId("steer").getByTestId("steer-status")).toHaveText("delivered at Stop");
  await expect(row.getByTestId("now-held-idle")).toHaveCount(0);
});
