// The real Claude Code program (the dev dependency's `claude`), offline against a scripted fake of
// Anthropic's Messages API, with podwatch's hooks installed by `podwatch hooks install` from the
// kit the server serves, in both forms. On the tape: the session's start, its prompt, a tool call
// pre and post joined, a gated command a person denies (it does not run) and one they allow (it
// runs) — answered through the inbox's own operation —, usage priced as Claude Code prices it,
// and the session's end.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
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

const CLAUDE = join(import.meta.dirname, "..", "..", "node_modules", ".bin", "claude");
const MARK = "PODWATCH-CLI-TEST";
type Ev = { type: string; actor: string; body: Record<string, any>; meta: { sessionId?: string } | null };

const SUBTASK = "PODWATCH-SUBTASK";
/** The model's side of the session: one plain command, then two gated ones, then a subagent, then a checkpoint. */
const STEPS = ["echo hello > plain.txt", "touch gated-denied.txt", "touch gated-allowed.txt"];
function script(r: Parameters<Parameters<typeof startFakeAnthropic>[0]>[0]): Reply {
  const done = toolResults(r).length;
  const conversation = JSON.stringify(r.messages);
  if (r.tools?.length && conversation.includes(SUBTASK) && !conversation.includes(MARK))
    return done === 0 // the subagent's own conversation: one command, then its answer
      ? {
          content: [
            { type: "tool_use", id: "toolu_sub_0", name: "Bash", input: { command: "echo sub > sub.txt" } },
          ],
        }
      : { content: [{ type: "text", text: "sub.txt written" }] };
  if (!r.tools?.length || !conversation.includes(MARK)) return { content: [{ type: "text", text: "ok" }] };
  if (done < STEPS.length)
    return {
      content: [
        { type: "text", text: `Step ${done + 1}.` },
        {
          type: "tool_use",
          id: `toolu_cli_${done}`,
          name: "Bash",
          input: { command: STEPS[done], description: "step" },
        },
      ],
    };
  if (done === STEPS.length)
    return {
      content: [
        {
          type: "tool_use",
          id: "toolu_cli_agent",
          name: "Agent",
          input: {
            description: "write sub.txt",
            prompt: `${SUBTASK}: write sub.txt`,
            subagent_type: "general-purpose",
          },
        },
      ],
    };
  return {
    content: [
      { type: "text", text: "Completed: plain.txt and the allowed file\nNext: nothing\nBlocked: none" },
    ],
  };
}

// One database is enough here: what is under test is the program and its hooks (the hook route's
// own tests run on SQLite and PostgreSQL), and each session takes a while on a loaded machine.
describe.each(testProviders().slice(0, 1))("the real Claude Code CLI on %s", (provider) => {
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

  async function gatedPod(name: string) {
    const { podId, tokens } = await agentPod(s.url, name, { claude: "implementer" });
    const person = await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: pia.email,
      kind: "human",
      displayName: pia.name,
      roles: ["approver"],
    });
    expect(person.status).toBe(201);
    const policy = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "agent.policy.set",
      actor: "ops-admin",
      body: {
        rules: [{ id: "gated", tool: "Bash", input: "touch gated-*", action: "ask" }],
        ask: { minutes: 10, then: "deny" },
        unreachable: "closed",
      },
    });
    expect(policy.status).toBe(201);
    return { podId, token: tokens["claude"]! };
  }

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

  /** A person answers each held call from the inbox: the denied file is refused, the allowed one allowed. */
  async function answerHeldCalls(podId: string, until: Promise<unknown>) {
    const answered = new Set<string>();
    let finished = false;
    void until.finally(() => (finished = true));
    while (!finished) {
      for (const e of await events(podId)) {
        if (e.type !== "tool.approval.requested" || answered.has(e.body.requestId)) continue;
        answered.add(e.body.requestId);
        const deny = String(e.body.input).includes("gated-denied");
        const r = await performOperation(s.app, pia, inboxOperations.answerToolApproval, {
          podId,
          answer: deny
            ? { requestId: e.body.requestId, decision: "deny", reason: "not this file" }
            : { requestId: e.body.requestId, decision: "allow" },
        });
        expect(r.ok).toBe(true);
      }
      await sleep(100);
    }
    return answered.size;
  }

  async function session(form: "command" | "http") {
    const { podId, token } = await gatedPod(`Claude Code ${form}`);
    const home = folder("podwatch-claude-home-");
    const cwd = folder("podwatch-claude-project-");
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      PODWATCH_URL: s.url,
      PODWATCH_TOKEN: token,
      PODWATCH_SPOOL_DIR: join(home, "spool"),
    };
    const install = await run(
      "podwatch",
      ["hooks", "install", ...(form === "http" ? ["--http"] : [])],
      cwd,
      env,
    );
    expect(install.code, install.stderr).toBe(0);
    const settings = readFileSync(join(cwd, ".claude", "settings.local.json"), "utf8");
    expect(settings).toContain(form === "http" ? "/api/v1/hooks/claude-code" : '"podwatch hook"');

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
    expect(await answerHeldCalls(podId, claude)).toBe(2);
    const done = await claude;
    expect(done.code, done.stderr).toBe(0);
    const result = JSON.parse(done.stdout) as { session_id: string; total_cost_usd: number };

    // What ran: the allowed command and the plain one; the denied one did not, and the model was told why.
    expect(existsSync(join(cwd, "plain.txt"))).toBe(true);
    expect(existsSync(join(cwd, "gated-allowed.txt"))).toBe(true);
    expect(existsSync(join(cwd, "gated-denied.txt"))).toBe(false);
    const denied = fake.requests
      .flatMap(toolResults)
      .find((b) => b.tool_use_id === "toolu_cli_1" && JSON.stringify(b).includes("not this file"));
    expect(denied?.is_error).toBe(true);

    expect(existsSync(join(cwd, "sub.txt"))).toBe(true);
    const costOf = (t: Ev[]) =>
      t.filter((e) => e.type === "usage.reported").reduce((n, e) => n + (e.body.costUsd ?? 0), 0);
    const all = await eventually(
      () => events(podId),
      (t) =>
        t.filter((e) => e.type === "session.ended").length === 2 && // the session's and its subagent's
        Math.abs(costOf(t) - result.total_cost_usd) < 1e-6,
      "the session's end, its subagent's, and all its usage",
      30_000,
    );
    const tape = all.filter((e) => e.meta?.sessionId === result.session_id);
    const sub = all.filter((e) => e.meta?.sessionId?.startsWith(`${result.session_id}/`));
    return { tape, sub, result, podId };
  }

  for (const form of ["command", "http"] as const)
    it(`${form} form: start, prompt, calls joined, a denied and an allowed gated command, usage with cost, end`, async () => {
      const { tape, sub, result } = await session(form);
      expect(tape.every((e) => e.actor === "claude")).toBe(true);
      const start = tape.find((e) => e.type === "session.started");
      // The SessionStart hook itself ran, in both forms (the HTTP form's is a command hook).
      expect(start?.body).toMatchObject({ via: "claude-code", source: "startup", cwd: expect.any(String) });
      expect(tape.find((e) => e.type === "prompt.submitted")?.body.text).toContain(MARK);

      const calls = (id: string) =>
        tape.filter((e) => e.type === "tool.call" && e.body.toolUseId === id).map((e) => e.body);
      expect(calls("toolu_cli_0").map((c) => c.phase)).toEqual(["started", "succeeded"]);
      expect(calls("toolu_cli_0")[0]).toMatchObject({ tool: "Bash", input: "echo hello > plain.txt" });
      expect(calls("toolu_cli_1")).toEqual([
        expect.objectContaining({
          phase: "started",
          gate: expect.objectContaining({ decision: "deny", by: "person" }),
        }),
      ]);
      expect(calls("toolu_cli_2").map((c) => [c.phase, c.gate?.decision, c.gate?.by])).toEqual([
        ["started", "allow", "person"],
        ["succeeded", undefined, undefined],
      ]);

      // Usage from the transcripts (the session's and its subagent's), priced from the list: what
      // Claude Code itself says the session cost.
      const usage = tape.filter((e) => e.type === "usage.reported");
      expect(usage.map((e) => e.body.model)).toContain("claude-opus-5-5");
      expect(result.total_cost_usd).toBeGreaterThan(0);
      expect(usage.reduce((n, e) => n + (e.body.costUsd ?? 0), 0)).toBeCloseTo(result.total_cost_usd, 6);
      expect(tape.filter((e) => e.type === "subagent").map((e) => e.body.phase)).toEqual([
        "started",
        "stopped",
      ]);

      // The subagent's work is its own session, under this one, with its type.
      expect(sub[0]).toMatchObject({
        type: "session.started",
        body: { source: "subagent", parentSessionId: result.session_id, agentType: "general-purpose" },
      });
      expect(
        sub.filter((e) => e.type === "tool.call").map((e) => [e.body.toolUseId, e.body.phase, e.body.input]),
      ).toEqual([
        ["toolu_sub_0", "started", "echo sub > sub.txt"],
        ["toolu_sub_0", "succeeded", "echo sub > sub.txt"],
      ]);
      expect(sub.at(-1)).toMatchObject({ type: "session.ended", body: { reason: "subagent stopped" } });
      expect(tape.filter((e) => e.type === "session.ended")).toHaveLength(1);
    });
});
