// Claude Code end to end: the real `claude -p` (a dev dependency) against a scripted fake of
// Anthropic's Messages API on 127.0.0.1, with podwatch's hooks installed by `podwatch hooks install`;
// a pod's rule holds its Bash calls (`touch *` → ask), and a person answers each in the browser's
// inbox: denied with a reason (the command does not run, and the model is told why), then allowed (it runs).
// And a person's message typed in the Sessions tab while a call waits reaches the model at the next hook.
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  startFakeAnthropic,
  toolResults,
  type MessagesRequest,
  type Reply,
} from "../server/testing/fake-anthropic";
import type { APIRequestContext, BrowserContext } from "@playwright/test";
import { test, expect } from "./fixtures";
import { claudeAt, heldCallCard, podHoldingCalls } from "./real-agents";

/** The model's side: in a session asked to "deny-me", "allow-me" or "steer-me", one touch of a file, then a last word. */
function script(r: MessagesRequest): Reply {
  const conversation = JSON.stringify(r.messages);
  const file = conversation.includes("deny-me")
    ? "denied.txt"
    : conversation.includes("steer-me")
      ? "steered.txt"
      : "allowed.txt";
  if (!r.tools?.length || !/(deny|allow|steer)-me/.test(conversation))
    return { content: [{ type: "text", text: "ok" }] };
  if (toolResults(r).length === 0)
    return {
      content: [
        { type: "tool_use", id: `toolu_e2e_${file}`, name: "Bash", input: { command: `touch ${file}` } },
      ],
    };
  return { content: [{ type: "text", text: "Done." }] };
}

/** A pod whose rule holds Claude Code's `touch *` for a person (ten minutes, then deny), an approver signed in. */
const claudePod = (request: APIRequestContext, context: BrowserContext, extra: object) =>
  podHoldingCalls(request, context, {
    memberId: "claude",
    displayName: "Claude Code",
    tokenLabel: "e2e claude",
    policy: {
      rules: [{ id: "touch", tool: "Bash", input: "touch *", action: "ask" }],
      ask: { minutes: 10, then: "deny" },
      ...extra,
    },
  });

test("a person denies one of Claude Code's Bash calls in the inbox and allows the next", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { pod, token } = await claudePod(request, context, { unreachable: "closed" });

  const fake = await startFakeAnthropic(script);
  const children: ChildProcess[] = [];
  try {
    const { work, claude } = await claudeAt(
      { baseURL: baseURL!, token, modelUrl: fake.url, install: [] },
      children,
    );

    await page.goto(`/pods/${pod.id}?tab=inbox`);
    const itemFor = (command: string) => heldCallCard(page, command);

    const denied = claude("please deny-me: make a file");
    const first = itemFor("touch denied.txt");
    await expect(first).toBeVisible({ timeout: 60_000 });
    await expect(first.getByTestId("held-call-tool")).toHaveText("Bash");
    await first.getByLabel("Reason (optional; the agent is told)").fill("not in this folder");
    await first.getByRole("button", { name: "Deny" }).click();
    await expect(first).toHaveCount(0);
    const d = await denied;
    expect(d.code, d.out).toBe(0);
    expect(existsSync(join(work, "denied.txt"))).toBe(false);
    const told = fake.requests
      .flatMap(toolResults)
      .find(
        (b) => b.tool_use_id === "toolu_e2e_denied.txt" && JSON.stringify(b).includes("not in this folder"),
      );
    expect(told?.is_error).toBe(true);

    const allowed = claude("please allow-me: make a file");
    const second = itemFor("touch allowed.txt");
    await expect(second).toBeVisible({ timeout: 60_000 });
    await second.getByRole("button", { name: "Allow once" }).click();
    await expect(second).toHaveCount(0);
    const a = await allowed;
    expect(a.code, a.out).toBe(0);
    expect(existsSync(join(work, "allowed.txt"))).toBe(true);
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await fake.close();
  }
});

test("a person's message from the Sessions tab reaches the real Claude Code at its next hook", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { pod, token } = await claudePod(request, context, {});
  const fake = await startFakeAnthropic(script);
  const children: ChildProcess[] = [];
  const MESSAGE = "E2E-STEER also write the changelog";
  try {
    const { work, claude } = await claudeAt(
      { baseURL: baseURL!, token, modelUrl: fake.url, install: ["--http"] },
      children,
    );
    const run = claude("please steer-me: make a file");
    // While its call waits for a person, the person tells the session what else to do.
    await page.goto(`/pods/${pod.id}?tab=inbox`);
    await expect(heldCallCard(page, "touch steered.txt")).toBeVisible({ timeout: 60_000 });
    await page.goto(`/pods/${pod.id}?tab=sessions`);
    const card = page.getByTestId("session").first();
    const box = card.getByRole("textbox", { name: /^Message to session / });
    await box.fill(MESSAGE);
    await box.press("Enter");
    const steer = card.getByTestId("steer").filter({ hasText: MESSAGE });
    await expect(steer.getByTestId("steer-status")).toHaveText("pending: at its next hook");
    // Then allows the call: the command runs, and the hook after it hands Claude Code the message.
    await page.goto(`/pods/${pod.id}?tab=inbox`);
    await heldCallCard(page, "touch steered.txt").getByRole("button", { name: "Allow once" }).click();
    const done = await run;
    expect(done.code, done.out).toBe(0);
    expect(existsSync(join(work, "steered.txt"))).toBe(true);
    const heard = fake.requests.filter((r) => JSON.stringify(r.messages).includes(MESSAGE));
    expect(heard.map((r) => toolResults(r).length)).toContain(1);
    await page.goto(`/pods/${pod.id}?tab=sessions`);
    await expect(
      page.getByTestId("steer").filter({ hasText: MESSAGE }).getByTestId("steer-status"),
    ).toHaveText("delivered at PostToolUse");
  } finally {
    for (const child of children) child.kill("SIGKILL");
    await fake.close();
  }
});
