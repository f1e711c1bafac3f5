// The real Claude Code program (the dev dependency's `claude`), offline against a scripted fake of
// Anthropic's Messages API, with podwatch's http hooks installed by `podwatch hooks install --http`.
// A person steers the running session through the steer operation: their message reaches the
// model in the very next request (the PostToolUse hook added it as context), and their interrupt
// ends the turn at the next hook, so the step the model planned after it never runs.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { installedPodwatch } from "../testing/installed-podwatch";
import { sleep } from "../testing/eventually";
import { startFakeAnthropic, toolResults, type FakeAnthropic, type Reply } from "../testing/fake-anthropic";
import { performOperation } from "../web/perform-operation";
import { inboxOperations } from "../pods/inbox-operations";
import type { Identity } from "../domain/access/policy";
import { sessionSteerOperations } from "./steer-operations";

const CLAUDE = join(import.meta.dirname, "..", "..", "node_modules", ".bin", "claude");
const MARK = "PODWATCH-STEER-TEST";
const MESSAGE = "PODWATCH-STEER-MESSAGE write notes.md as well";
/** The model's plan: two held commands, then one the interrupt must keep from running, then its answer. */
const STEPS = ["touch hold-1.txt", "touch hold-2.txt", "touch after-interrupt.txt"];
type Ev = { type: string; actor: string; body: Record<string, any>; meta: { sessionId?: string } | null };

function script(r: Parameters<Parameters<typeof startFakeAnthropic>[0]>[0]): Reply {
  const done = toolResults(r).length;
  if (!r.tools?.length || !JSON.stringify(r.messages).includes(MARK))
    return { content: [{ type: "text", text: "ok" }] };
  if (done < STEPS.length)
    return {
      content: [
        { type: "tool_use", id: `toolu_steer_${done}`, name: "Bash", input: { command: STEPS[done] } },
      ],
    };
  return { content: [{ type: "text", text: "All done." }] };
}

describe.each(testProviders().slice(0, 1))("steering the real Claude Code CLI on %s", (provider) => {
  let s: TestServer;
  let fake: FakeAnthropic;
  let bin: string;
  const children = new Set<ChildProcess>();
  const folders: string[] = [];
  const folder = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    folders.push(dir);
    return dir;
  };
  const pia: Extract<Identity, { kind: "user" }> = {
    kind: "user",
    userId: "u-pia",
    email: "pia@example.com",
    name: "Pia",
    isAdmin: false,
  };

  beforeAll(async () => {
    s = await startTestServer(provider);
    fake = await startFakeAnthropic(script);
    bin = await installedPodwatch(s.url);
  });
  afterAll(async () => {
    for (const c of children) c.kill("SIGKILL");
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
    await fake?.close();
    await s?.stop();
  });

  const events = async (podId: string): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events;

  function run(cmd: string, args: string[], cwd: string, env: Record<string, string>) {
    const child = spawn(cmd, args, {
      cwd,
      env: { NODE_ENV: "production", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.add(child);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      child.on("close", (code) => {
        children.delete(child);
        resolve({ code: code ?? -1, stdout, stderr });
      }),
    );
  }

  /** While each held call waits, the person steers the session (a message, then an interrupt), then allows the call. */
  async function steerWhileHeld(podId: string, until: Promise<unknown>) {
    const acts = [
      { act: "message" as const, text: MESSAGE },
      { act: "interrupt" as const, text: "PODWATCH-STEER-STOP that is enough" },
    ];
    const answered = new Set<string>();
    let finished = false;
    void until.finally(() => (finished = true));
    while (!finished) {
      for (const e of await events(podId)) {
        if (e.type !== "tool.approval.requested" || answered.has(e.body.requestId)) continue;
        const step = acts[answered.size];
        answered.add(e.body.requestId);
        if (step) {
          const sent = await performOperation(s.app, pia, sessionSteerOperations.steerSession, {
            podId,
            sessionId: e.meta!.sessionId!,
            steerId: `steer-${answered.size}`,
            ...step,
          });
          expect(sent.ok, JSON.stringify(sent)).toBe(true);
        }
        const r = await performOperation(s.app, pia, inboxOperations.answerToolApproval, {
          podId,
          answer: { requestId: e.body.requestId, decision: "allow" },
        });
        expect(r.ok).toBe(true);
      }
      await sleep(100);
    }
    return answered.size;
  }

  it("a message reaches the model at the next hook; an interrupt ends the turn before the next step", async () => {
    const { podId, tokens } = await agentPod(s.url, "Steer Claude Code", { claude: "implementer" });
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId: pia.email,
          kind: "human",
          displayName: pia.name,
          roles: ["approver"],
        })
      ).status,
    ).toBe(201);
    const policy = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "agent.policy.set",
      actor: "ops-admin",
      body: {
        rules: [{ id: "hold", tool: "Bash", input: "touch hold-*", action: "ask" }],
        ask: { minutes: 10, then: "deny" },
      },
    });
    expect(policy.status).toBe(201);
    const home = folder("podwatch-steer-home-");
    const cwd = folder("podwatch-steer-project-");
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      PODWATCH_URL: s.url,
      PODWATCH_TOKEN: tokens["claude"]!,
      PODWATCH_SPOOL_DIR: join(home, "spool"),
    };
    const install = await run("podwatch", ["hooks", "install", "--http"], cwd, env);
    expect(install.code, install.stderr).toBe(0);
    const claude = run(
      CLAUDE,
      ["-p", `${MARK}: make the files`, "--output-format", "json", "--permission-mode", "bypassPermissions"],
      cwd,
      {
        ...env,
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: "sk-ant-test-dummy",
        IS_SANDBOX: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_ERROR_REPORTING: "1",
      },
    );
    expect(await steerWhileHeld(podId, claude)).toBe(2);
    const done = await claude;

    // The message: in the model's request right after the first held call ran, not before it.
    const ours = fake.requests.filter((r) => JSON.stringify(r.messages).includes(MARK) && r.tools?.length);
    const heard = ours.map((r) => [toolResults(r).length, JSON.stringify(r.messages).includes(MESSAGE)]);
    expect(heard).toContainEqual([1, true]);
    expect(heard).toContainEqual([0, false]);
    // The interrupt: both held calls ran, the step after them never did, nor was the model asked for one.
    expect(existsSync(join(cwd, "hold-1.txt"))).toBe(true);
    expect(existsSync(join(cwd, "hold-2.txt"))).toBe(true);
    expect(existsSync(join(cwd, "after-interrupt.txt"))).toBe(false);
    expect(ours.some((r) => toolResults(r).length >= 2)).toBe(false);
    // Claude Code says why it ended: a hook stopped it.
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ terminal_reason: "hook_stopped", is_error: false });

    const tape = await events(podId);
    expect(
      tape
        .filter((e) => e.type === "session.steer.delivered")
        .map((e) => [e.actor, e.body.steerId, e.body.via]),
    ).toEqual([
      ["claude", "steer-1", "PostToolUse"],
      ["claude", "steer-2", "PostToolUse"],
    ]);
  });
});
