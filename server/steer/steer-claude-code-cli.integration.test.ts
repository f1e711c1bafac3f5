// The real Claude Code program (the dev dependency's `claude`), offline against a scripted fake of
// Anthropic's Messages API, with podwatch's http hooks installed by `podwatch hooks install --http`.
// A person steers the running session through the steer operation: their message reaches the
// model in the very next request (the PostToolUse hook added it as context), and their interrupt
// ends the turn at the next hook, so the step the model planned after it never runs. An idle session
// held at its Stop (the policy's idleHold) carries on with a person's Resume, or stops at the deadline.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { installedPodwatch } from "../testing/installed-podwatch";
import { eventually, sleep } from "../testing/eventually";
import { startFakeAnthropic, toolResults, type FakeAnthropic, type Reply } from "../testing/fake-anthropic";
import { performOperation } from "../web/perform-operation";
import { inboxOperations } from "../pods/inbox-operations";
import type { Identity } from "../domain/access/policy";
import { sessionSteerOperations } from "./steer-operations";

const CLAUDE = join(import.meta.dirname, "..", "..", "node_modules", ".bin", "claude");
const MARK = "PODWATCH-STEER-TEST";
const MESSAGE = "PODWATCH-STEER-MESSAGE write notes.md as well";
/** An idle session's prompt (the model answers it in words, and the turn ends) and a person's Resume. */
const IDLE_MARK = "PODWATCH-IDLE-TEST";
const RESUME = "PODWATCH-RESUME-MESSAGE now write the changelog";
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

  /** A fresh project and home with podwatch's http hooks installed for this agent token. */
  async function installedIn(token: string) {
    const home = folder("podwatch-steer-home-");
    const cwd = folder("podwatch-steer-project-");
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      PODWATCH_URL: s.url,
      PODWATCH_TOKEN: token,
      PODWATCH_SPOOL_DIR: join(home, "spool"),
    };
    const install = await run("podwatch", ["hooks", "install", "--http"], cwd, env);
    expect(install.code, install.stderr).toBe(0);
    return { cwd, env };
  }
  /** `claude -p <prompt>` against the fake model, every tool allowed (the hooks decide). */
  const runClaude = (prompt: string, cwd: string, env: Record<string, string>) =>
    run(CLAUDE, ["-p", prompt, "--output-format", "json", "--permission-mode", "bypassPermissions"], cwd, {
      ...env,
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-ant-test-dummy",
      IS_SANDBOX: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_ERROR_REPORTING: "1",
    });
  const setPolicy = async (podId: string, body: Record<string, unknown>) =>
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "agent.policy.set",
          actor: "ops-admin",
          body,
        })
      ).status,
    ).toBe(201);

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
    const { cwd, env } = await installedIn(tokens["claude"]!);
    const claude = runClaude(`${MARK}: make the files`, cwd, env);
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
  /** The session the agent's hooks opened, once its Stop is held for a person's Resume. */
  const heldSession = async (podId: string, n: number) =>
    (
      await eventually(
        async () => (await events(podId)).filter((e) => e.type === "session.idle.held"),
        (held) => held.length >= n,
        `Stop held ${n} time(s)`,
        60_000,
      )
    )[n - 1]!;

  it("idle, held at its Stop: a Resume with a message through the steer door and Claude Code carries on with it", async () => {
    const { podId, tokens } = await agentPod(s.url, "Resume Claude Code", { claude: "implementer" });
    await setPolicy(podId, { rules: [], idleHold: 120 });
    const { cwd, env } = await installedIn(tokens["claude"]!);
    const claude = runClaude(`${IDLE_MARK}: say ok`, cwd, env);
    const held = await heldSession(podId, 1);
    const sessionId = held.meta!.sessionId!;
    const sent = await api(s.url, "POST", `/api/v1/pods/${podId}/sessions/${sessionId}/steer`, {
      steerId: "resume-1",
      act: "resume",
      text: RESUME,
    });
    expect(sent.status).toBe(201);
    // It carried on: the model's next request holds the person's words (the Stop's block reason).
    await eventually(
      async () => fake.requests.filter((r) => JSON.stringify(r.messages).includes(RESUME)).length,
      (n) => n > 0,
      "the model asked again with the message",
      60_000,
    );
    // Idle again, held again: turning the hold off lets this Stop through and Claude Code ends.
    await heldSession(podId, 2);
    await setPolicy(podId, { rules: [], idleHold: 0 });
    const done = await claude;
    expect(done.code, done.stderr).toBe(0);
    const tape = await events(podId);
    expect(
      tape
        .filter((e) => e.type === "session.steer.delivered")
        .map((e) => [e.actor, e.body.steerId, e.body.via]),
    ).toEqual([["claude", "resume-1", "Stop"]]);
  });

  it("idle, held at its Stop, nobody resumes: the Stop is let through when the hold runs out", async () => {
    const { podId, tokens } = await agentPod(s.url, "Idle Claude Code", { claude: "implementer" });
    await setPolicy(podId, { rules: [], idleHold: 2 });
    const { cwd, env } = await installedIn(tokens["claude"]!);
    const asked = fake.requests.length;
    const done = await runClaude(`${IDLE_MARK}: say ok once`, cwd, env);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ is_error: false });
    const tape = await events(podId);
    expect(tape.filter((e) => e.type === "session.idle.held")).toHaveLength(1);
    expect(tape.map((e) => e.type)).not.toContain("session.steer.delivered");
    // Let through, not sent on: no request carried on after the Stop.
    const mine = fake.requests.slice(asked).filter((r) => JSON.stringify(r.messages).includes(IDLE_MARK));
    expect(mine.filter((r) => r.tools?.length)).toHaveLength(1);
  });
});
