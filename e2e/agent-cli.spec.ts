// The agent side end to end: an agent runs `podwatch escalate --wait`, a
// person answers in the browser's inbox, and the command prints that answer.
import { test, expect, createPod, createPerson, adminPost, signIn } from "./fixtures";
import { startCli } from "../server/testing/run-cli";

test("`podwatch escalate --wait` returns the answer a human gives in the browser", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const pod = await createPod(request);
  await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
    memberId: "cli-agent",
    kind: "agent",
    displayName: "CLI agent",
    roles: ["implementer"],
  });
  const { token } = await adminPost(request, `/api/v1/pods/${pod.id}/members/cli-agent/tokens`, {
    label: "e2e",
  });

  const cli = startCli(
    [
      "escalate",
      "Retry webhooks at least once?",
      "--kind",
      "risk_tolerance",
      "--option",
      "Yes, receivers dedupe",
      "--option",
      "No",
      "--wait",
    ],
    { PODWATCH_URL: baseURL, PODWATCH_TOKEN: token },
  );
  try {
    await signIn(context, await createPerson(request, pod.id, "approver"));
    await expect.poll(cli.stderr, { timeout: 30_000 }).toContain("waiting for a human"); // asked, and now blocked
    await page.goto("/inbox");
    const item = page.getByTestId("inbox-item").filter({ hasText: "Retry webhooks at least once?" });
    await expect(item).toBeVisible();
    expect(cli.stdout()).toBe(""); // nobody has answered yet
    await item.getByRole("button", { name: "Yes, receivers dedupe" }).click();
    await expect(item).toHaveCount(0);
    expect(await cli.done).toEqual({
      code: 0,
      stdout: "Yes, receivers dedupe\n",
      stderr: expect.stringContaining("waiting for a human"),
    });
  } finally {
    cli.child.kill();
  }
});
