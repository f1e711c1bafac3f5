// A first-time user with only the README: its "Two commands" start podwatch from this checkout on a
// fresh data folder, the printed password signs in, "Your first pod" makes a pod and an agent with
// its token, "Connect Claude Code" holds `rm -rf` calls and runs its marked shell block on a clean
// machine (a private HOME and npm prefix, the kit from the server), and the real Claude Code
// (against a scripted fake of Anthropic's Messages API) asks to `rm -rf build`: the call waits in
// the pod's inbox and is allowed there. The blocks are read from README.md by their marks, not copied.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Page } from "@playwright/test";
import {
  startFakeAnthropic,
  toolResults,
  type MessagesRequest,
  type Reply,
} from "../server/testing/fake-anthropic";
import { test, expect, signInInBrowser } from "./fixtures";
import { heldCallCard, runChild } from "./real-agents";

const ROOT = process.cwd();
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** The README's ```sh block marked `<!-- readme-block: KIND -->` (one of each kind is expected). */
function readmeBlock(kind: "clean" | "agent"): string {
  const blocks = [...README.matchAll(/((?:^<!-- [^\n]* -->\n)*)^```sh\n([\s\S]*?)^```/gm)].filter((m) =>
    m[1]!.includes(`<!-- readme-block: ${kind} -->`),
  );
  expect(blocks, `README's ${kind} block`).toHaveLength(1);
  return blocks[0]![2]!;
}

/** The README's numbered step that starts with `**title**`, so a change of wording fails here. */
const readmeStep = (title: string) =>
  expect(README).toMatch(new RegExp(`^\\d+\\. \\*\\*${title}\\*\\*`, "m"));

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** The model's side: asked to delete the build folder, one `rm -rf build`, then a last word. */
function model(r: MessagesRequest): Reply {
  if (!r.tools?.length || !JSON.stringify(r.messages).includes("build folder"))
    return { content: [{ type: "text", text: "ok" }] };
  if (toolResults(r).length === 0)
    return {
      content: [
        { type: "tool_use", id: "toolu_readme_rm", name: "Bash", input: { command: "rm -rf build" } },
      ],
    };
  return { content: [{ type: "text", text: "Deleted the build folder." }] };
}

/** `npm start`, as the README's first block says, from this checkout on a fresh data folder. */
async function npmStart(children: ChildProcess[]) {
  const lines = readmeBlock("clean")
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
  expect(lines[0]).toBe("npm install && npm start"); // installed already: the checkout runs these tests
  const data = mkdtempSync(join(tmpdir(), "podwatch-first-run-"));
  const port = await freePort();
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    env: {
      NODE_ENV: "production",
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      DATABASE_URL: `file:${join(data, "data", "podwatch.db")}`,
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d));
  child.stderr!.on("data", (d: Buffer) => (out += d));
  const first = /first start — sign in at (\S+)\/sign-in as (\S+) with the password (\S+)/;
  await expect.poll(() => out, { timeout: 240_000, message: "the first-start line" }).toMatch(first);
  const [, url, email, password] = out.match(first)!;
  return { url: url!, admin: { email: email!, password: password! }, log: () => out };
}

/** The agent's machine: an empty project folder, a private HOME and npm prefix, Node and the real `claude`. */
function agentMachine() {
  const root = mkdtempSync(join(tmpdir(), "podwatch-first-run-agent-"));
  const home = join(root, "home");
  const project = join(root, "project");
  const bin = join(root, "bin");
  for (const d of [home, project, bin]) mkdirSync(d);
  symlinkSync(join(ROOT, "node_modules", ".bin", "claude"), join(bin, "claude"));
  const prefix = join(home, ".npm-global");
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    HOME: home,
    PATH: [join(prefix, "bin"), bin, dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
    npm_config_prefix: prefix,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
  return { home, project, env };
}

async function addAgent(page: Page) {
  await page.getByRole("tab", { name: /members/i }).click();
  const form = page.getByRole("form", { name: "Add agent" });
  await form.getByLabel("Agent id").fill("claude-1");
  await form.getByLabel("Display name").fill("Claude Code");
  await form.getByRole("checkbox", { name: "implementer" }).check();
  await form.getByRole("button", { name: "Add agent and create its token" }).click();
  const panel = page.getByTestId("token-snippets");
  const token = (await panel.getByTestId("snippet-token").textContent())!;
  expect(token).toMatch(/^pwa_/);
  await panel.getByRole("button", { name: "Done, I have stored it" }).click();
  return token;
}

test("from a clone to a real Claude Code's tool call answered in the browser, with only the README", async ({
  browser,
}) => {
  test.setTimeout(480_000);
  const children: ChildProcess[] = [];
  const fake = await startFakeAnthropic(model);
  try {
    // Two commands: the printed password.
    const server = await npmStart(children);
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();

    // Your first pod: sign in, a new pod, an agent and its token.
    readmeStep("Sign in");
    await signInInBrowser(page, server.admin);
    readmeStep("New pod");
    await page.goto("/pods");
    await page.getByRole("button", { name: "New pod" }).click();
    const newPod = page.getByRole("form", { name: "New pod" });
    await newPod.getByLabel("Name").fill("first run");
    await newPod.getByLabel("Scope").fill("Tidy the repository");
    await newPod.getByLabel(/Success criteria/).fill("No stale build output");
    await newPod.getByRole("button", { name: "Create pod" }).click();
    await expect(page).toHaveURL(/\/pods\/[0-9a-f-]+\?tab=setup$/);
    const podPath = new URL(page.url()).pathname;
    readmeStep("Agents");
    const token = await addAgent(page);

    // Connect Claude Code: hold the calls to see first, then the marked block on the agent's machine.
    readmeStep("Hold the calls you want to see first");
    expect(README).toContain("Members tab, **Tool policies**, click");
    expect(README).toContain("**+ Ask before git push or rm -rf**, then **Save policy**");
    await page
      .getByRole("tablist", { name: "Members sections" })
      .getByRole("tab", { name: "Tool policies" })
      .click();
    const policies = page.getByTestId("tool-policies");
    await policies.getByRole("button", { name: "+ Ask before git push or rm -rf" }).click();
    await policies.getByRole("button", { name: "Save policy" }).click();
    await expect(policies).toContainText(/set by \S+ at #\d+/);

    readmeStep("On the agent's machine");
    const m = agentMachine();
    const block = readmeBlock("agent")
      .replaceAll("http://127.0.0.1:3000", server.url)
      .replaceAll("pwa_…", token);
    const envFile = join(m.home, ".shell-env");
    const shell = await runChild(
      "bash",
      ["-c", `set -e\n${block}\nenv -0 > ${envFile}`],
      { cwd: m.project, env: m.env },
      children,
    );
    expect(shell.code, shell.out).toBe(0);
    const shellEnv = Object.fromEntries(
      readFileSync(envFile, "utf8")
        .split("\0")
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
    );
    expect(existsSync(join(m.project, ".claude", "settings.local.json"))).toBe(true);

    // Start claude from that shell, asked for something that runs rm -rf.
    readmeStep("Start `claude`");
    mkdirSync(join(m.project, "build"));
    const claude = runChild(
      "claude",
      ["-p", "delete the build folder", "--output-format", "json", "--permission-mode", "bypassPermissions"],
      {
        cwd: m.project,
        env: {
          ...shellEnv,
          NODE_ENV: "production",
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

    // The call waits in the pod's inbox, showing the whole command; Allow once lets it run.
    await page.goto(`${podPath}?tab=inbox`);
    const card = heldCallCard(page, "rm -rf build");
    await expect(card).toBeVisible({ timeout: 90_000 });
    expect(existsSync(join(m.project, "build"))).toBe(true);
    await card.getByRole("button", { name: "Allow once" }).click();
    await expect(card).toHaveCount(0);
    const ran = await claude;
    expect(ran.code, ran.out).toBe(0);
    expect(existsSync(join(m.project, "build"))).toBe(false);

    // The session is on the pod's Sessions tab.
    await page.goto(`${podPath}?tab=sessions`);
    const sessions = page.getByRole("region", { name: "Agent sessions" }).getByRole("listitem");
    await expect(sessions).toHaveCount(1);
    await expect(sessions).toContainText("Claude Code");
    await expect(sessions).toContainText("via claude-code");
    await context.close();
  } finally {
    for (const child of children)
      if (child.exitCode === null) {
        if (child.spawnargs[0] === "npm") process.kill(-child.pid!, "SIGTERM");
        else child.kill("SIGKILL");
      }
    await fake.close();
  }
});
