// Codex end to end: the real `codex exec` (a dev dependency) against a scripted Responses API on
// 127.0.0.1, with podwatch's hooks installed by `podwatch hooks install --agent codex`; a pod's
// rule holds its shell calls (`touch *` → ask), and a person answers each in the browser's inbox:
// denied with a reason (the command does not run, and the model is told why), then allowed (it runs).
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installedPodwatch } from "../server/testing/installed-podwatch";
import { fakeCodexApi } from "../server/testing/codex-fake-api";
import { test, expect } from "./fixtures";
import { heldCallCard, podHoldingCalls, runChild } from "./real-agents";

const CODEX = join(process.cwd(), "node_modules", ".bin", "codex");

test("a person denies one of Codex's shell calls in the inbox and allows the next", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const policy = {
    rules: [{ id: "touch", tool: "Bash", input: "touch *", action: "ask" }],
    ask: { minutes: 10, then: "deny" },
    unreachable: "closed",
  };
  const { pod, token } = await podHoldingCalls(request, context, {
    memberId: "codex",
    displayName: "Codex",
    tokenLabel: "e2e codex",
    policy,
  });

  const fake = await fakeCodexApi(
    (input) => `touch ${input.includes("deny-me") ? "denied.txt" : "allowed.txt"}`,
  );
  const root = mkdtempSync(join(tmpdir(), "podwatch-e2e-codex-"));
  const codexHome = join(root, "codex-home");
  const work = join(root, "work");
  mkdirSync(codexHome);
  mkdirSync(work);
  writeFileSync(
    join(codexHome, "config.toml"),
    `model = "gpt-5-codex"\nmodel_provider = "fake"\n[model_providers.fake]\nname = "fake"\n` +
      `base_url = "${fake.baseUrl}"\nenv_key = "FAKE_OPENAI_KEY"\nwire_api = "responses"\n`,
  );
  const bin = await installedPodwatch(baseURL!);
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    PATH: `${bin}:${process.env.PATH}`,
    HOME: root,
    CODEX_HOME: codexHome,
    FAKE_OPENAI_KEY: "sk-fake",
    PODWATCH_URL: baseURL!,
    PODWATCH_TOKEN: token,
    PODWATCH_SPOOL_DIR: join(root, "spool"),
  };
  const children: ChildProcess[] = [];
  try {
    const install = await runChild(
      join(bin, "podwatch"),
      ["hooks", "install", "--agent", "codex"],
      { cwd: work, env },
      children,
    );
    expect(install.code, install.out).toBe(0);
    const codex = (prompt: string) =>
      runChild(
        CODEX,
        [
          "exec",
          "--skip-git-repo-check",
          "--json",
          "-s",
          "danger-full-access",
          "--dangerously-bypass-hook-trust",
          prompt,
        ],
        { cwd: work, env },
        children,
      );

    await page.goto(`/pods/${pod.id}?tab=inbox`);
    const itemFor = (command: string) => heldCallCard(page, command);

    const denied = codex("please deny-me: make a file");
    const first = itemFor("touch denied.txt");
    await expect(first).toBeVisible({ timeout: 60_000 });
    await expect(first.getByTestId("held-call-tool")).toHaveText("Bash");
    await first.getByLabel("Reason (optional; the agent is told)").fill("not in this folder");
    await first.getByRole("button", { name: "Deny" }).click();
    await expect(first).toHaveCount(0);
    const d = await denied;
    expect(d.code, d.out).toBe(0);
    expect(existsSync(join(work, "denied.txt"))).toBe(false);
    expect(fake.toolResults.join("\n")).toContain("not in this folder");

    const allowed = codex("please allow-me: make a file");
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
