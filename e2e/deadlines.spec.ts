// Deadlines: an escalation with a deadline shows the time left in the inbox, ticking; when it
// passes, the server answers it (as podwatch) and the item leaves the inbox live, and the tape
// shows the outcome by podwatch.
import { test, expect, createPod, createPerson, signIn, postEvents, ev, adminPost } from "./fixtures";

test("a deadline's time left ticks in the inbox; when it passes the item leaves and the tape shows podwatch's answer", async ({
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
  await signIn(context, await createPerson(request, pod.id, "approver"));
  const at = new Date(Date.now() + 12_000).toISOString();
  await postEvents(request, pod.id, [
    ev("escalation", "impl", {
      escalationId: "esc-deadline",
      kind: "intent",
      question: "Ship the hotfix tonight?",
      options: ["Yes", "No"],
      deadline: { at, then: "answer", answer: "No" },
    }),
  ]);

  await page.goto("/inbox");
  const item = page.getByTestId("inbox-item").filter({ hasText: "Ship the hotfix tonight?" });
  const due = item.getByTestId("inbox-due");
  await expect(due).toContainText(/answers “No” in \d+s/);
  const first = await due.textContent();
  await expect(due).not.toHaveText(first!); // it ticks
  await expect(due).toHaveAttribute("title", /answers “No”/);

  // The server passes the deadline by itself; the live view drops the item.
  await expect(item).toHaveCount(0, { timeout: 30_000 });
  await page.goto(`/pods/${pod.id}?tab=tape`);
  const row = page
    .getByTestId("tape-event")
    .filter({ hasText: "Deadline passed on escalation esc-deadline" });
  await expect(row).toContainText("podwatch");
  await expect(row).toContainText('answered "No"');
});
