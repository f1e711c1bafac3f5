// Gemini CLI end to end: the real Gemini CLI (against a scripted fake of its model API), its
// hooks installed by `podwatch hooks install --agent gemini`, asks to run two shell commands a
// pod's policy holds for a person; in the inbox in Chromium the person allows one (it runs) and
// denies the other with a reason (it does not run, and the model is told the person's reason).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test, expect } from "./fixtures";
import { podHoldingCalls } from "./real-agents";
import { installedPodwatch } from "../server/testing/installed-podwatch";
import { startFakeGeminiApi } from "../server/testing/fake-gemini-api";

const GEMINI = join(process.cwd(), "node_modules", ".bin", "gemini");
type Run = { code: number | null; stdout: string; stderr: string };

function run(cmd: string, args: string[], env: Record<string, string>, cwd: string) {
  const child: ChildProcess = spawn(cmd, args, {
    cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d));
  child.stderr!.on("data", (d: Buffer) => (stderr += d));
  const done = new Promise<Run>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { done, kill: () => child.kill("SIGKILL") };
}

test("a person allows one of Gemini CLI's shell commands and denies another in the inbox", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const { pod, token } = await podHoldingCalls(request, context, {
    memberId: "gem",
    displayName: "Gemini CLI",
    tokenLabel: "e2e",
    author: "admin",
    policy: {
      rules: [{ id: "files", tool: "run_shell_command", input: "*.txt*", action: "ask" }],
      ask: { minutes: 10, then: "deny" },
    },
  });

  const fake = await startFakeGeminiApi([
    { call: { name: "run_shell_command", args: { command: "echo ok > allowed.txt", description: "write" } } },
    { call: { name: "run_shell_command", args: { command: "echo no > denied.txt", description: "write" } } },
    { text: "One written, one refused." },
  ]);
  const home = mkdtempSync(join(tmpdir(), "podwatch-e2e-gemini-"));
  const work = join(home, "work");
  mkdirSync(join(home, ".gemini"), { recursive: true });
  mkdirSync(work);
  writeFileSync(
    join(home, ".gemini", "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      model: { name: "gemini-2.5-flash" },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true },
    }),
  );
  const bin = await installedPodwatch(baseURL!);
  const env = {
    PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    GEMINI_CLI_HOME: home,
    PODWATCH_URL: baseURL!,
    PODWATCH_TOKEN: token,
    PODWATCH_SPOOL_DIR: join(home, "spool"),
  };
  const install = await run(join(bin, "podwatch"), ["hooks", "install", "--agent", "gemini"], env, work).done;
  expect(install.code, install.stderr).toBe(0);

  const gemini = run(
    GEMINI,
    ["-p", "write two files", "--approval-mode", "yolo", "--skip-trust", "-o", "stream-json"],
    { ...env, GEMINI_API_KEY: "fake-key", GOOGLE_GEMINI_BASE_URL: fake.url },
    work,
  );
  try {
    await page.goto(`/pods/${pod.id}?tab=inbox`);
    const itemFor = (file: string) => page.getByTestId("inbox-item").filter({ hasText: file });

    const allowed = itemFor("allowed.txt");
    await expect(allowed).toBeVisible({ timeout: 120_000 });
    await expect(allowed.getByTestId("held-call-tool")).toHaveText("run_shell_command");
    expect(existsSync(join(work, "allowed.txt"))).toBe(false);
    await allowed.getByRole("button", { name: "Allow once" }).click();
    await expect(allowed).toHaveCount(0);

    const denied = itemFor("denied.txt");
    await expect(denied).toBeVisible({ timeout: 60_000 });
    await denied.getByLabel("Reason (optional; the agent is told)").fill("Not that file");
    await denied.getByRole("button", { name: "Deny" }).click();
    await expect(denied).toHaveCount(0);

    const done = await gemini.done;
    expect(done.code, done.stderr.slice(-2000)).toBe(0);
    expect(existsSync(join(work, "allowed.txt"))).toBe(true);
    expect(existsSync(join(work, "denied.txt"))).toBe(false);
    expect(JSON.stringify(fake.requests.at(-1)?.body)).toContain("Not that file");
  } finally {
    gemini.kill();
    await fake.close();
  }
});
