// Claude Code end to end: the real `claude -p` (a dev dependency) against a scripted fake of
// Anthropic's Messages API on 127.0.0.1, with podwatch's hooks installed by `podwatch hooks install`;
// a pod's rule holds its Bash calls (`touch *` → ask), and a person answers each in the browser's
// inbox: denied with a reason (the command does not run, and the model is told why), then allowed (it runs).
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installedPodwatch } from "../server/testing/installed-podwatch";
import {
  startFakeAnthropic,
  toolResults,
  type MessagesRequest,
  type Reply,
} from "../server/testing/fake-anthropic";
import { test, expect } from "./fixtures";
import { heldCallCard, podHoldingCalls, runChild } from "./real-agents";

const CLAUDE = join(process.cwd(), "node_modules", ".bin", "claude");

/** The model's side: in a session asked to "deny-me" or "allow-me", one touch of that file, then a last word. */
function script(r: MessagesRequest): Reply {
  const conversation = JSON.stringify(r.messages);
  const file = conversation.includes("deny-me") ? "denied.txt" : "allowed.txt";
  if (!r.tools?.length || !/(deny|allow)-me/.test(conversation))
    return { content: [{ type: "text", text: "ok" }] };
  if (toolResults(r).length === 0)
    return {
      content: [
        { type: "tool_use", id: `toolu_e2e_${file}`, name: "Bash", input: { command: `touch ${file}` } },
      ],
    };
  return { content: [{ type: "text", text: "Done." }] };
}

test("a person denies one of Claude Code's Bash calls in the inbox and allows the next", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const policy = {
    rules: [{ id: "touch", tool: "Bash", input: "touch *", action: "ask" }],
    ask: { minutes: 10, then: "deny" },
    unreachable: "closed",
  };
  const { pod, token } = await podHoldingCalls(request, context, {
    memberId: "claude",
    displayName: "Claude Code",
    tokenLabel: "e2e claude",
    policy,
  });

  const fake = await startFakeAnthropic(script);
  const root = mkdtempSync(join(tmpdir(), "podwatch-e2e-claude-"));
  const work = join(root, "work");
  mkdirSync(work);
  const bin = await installedPodwatch(baseURL!);
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    PATH: `${bin}:${process.env.PATH}`,
    HOME: root,
    PODWATCH_URL: baseURL!,
    PODWATCH_TOKEN: token,
    PODWATCH_SPOOL_DIR: join(root, "spool"),
  };
  const children: ChildProcess[] = [];
  try {
    const install = await runChild(join(bin, "podwatch"), ["hooks", "install"], { cwd: work, env }, children);
    expect(install.code, install.out).toBe(0);
    const claude = (prompt: string) =>
      runChild(
        CLAUDE,
        ["-p", prompt, "--output-format", "json", "--permission-mode", "bypassPermissions"],
        {
          cwd: work,
          env: {
            ...env,
            ANTHROPIC_BASE_URL: fake.url,
            ANTHROPIC_API_KEY: "sk-ant-test-dummy",
            IS_SANDBOX: "1",
            DISABLE_TELEMETRY: "1",
            DISABLE_AUTOUPDATER: "1",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
            DISABLE_ERROR_REPORTING: "1",
          },
        },
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
