// The real Codex CLI (`codex exec`, a dev dependency) against a scripted fake of the Responses API
// on 127.0.0.1, with podwatch's hooks installed by `podwatch hooks install --agent codex` from the
// podwatch command the server's kit installs. On the tape: the session as Codex's, its prompt, a
// shell call's start and end joined, one gated call a person denies (it does not run: the model
// reads the block and no file appears) and one they allow (it runs), usage with cost from Codex's
// session log, and the session's end. Every child is killed at the end.
import { BLOCK_ON_FAILURE } from "../hooks/settings-snippet";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../../server/testing/test-server";
import { testProviders } from "../../server/testing/test-databases";
import { installedPodwatch } from "../../server/testing/installed-podwatch";
import { fakeCodexApi, type FakeCodexApi } from "../../server/testing/codex-fake-api";
import { eventually } from "../../server/testing/eventually";
import { performOperation } from "../../server/web/perform-operation";
import { inboxOperations } from "../../server/pods/inbox-operations";
import type { Identity } from "../../server/domain/access/policy";

const CODEX = join(import.meta.dirname, "..", "..", "node_modules", ".bin", "codex");
type Ev = { type: string; actor: string; meta: { sessionId?: string } | null; body: Record<string, any> };

describe.each(testProviders())("the real Codex CLI with podwatch's hooks on %s", (provider) => {
  let s: TestServer;
  let fake: FakeCodexApi;
  let podId: string;
  let env: NodeJS.ProcessEnv;
  let work: string;
  const children = new Set<ChildProcess>();
  const approver: Extract<Identity, { kind: "user" }> = {
    kind: "user",
    userId: "u-pia",
    email: `pia-${Date.now()}@example.com`,
    name: "Pia",
    isAdmin: false,
  };

  const events = async (): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events;
  const held = async () => {
    const inbox = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.inbox as Record<string, any>;
    return Object.values(inbox).filter((i) => i.kind === "tool_approval");
  };
  /** Runs `codex exec` on a prompt; resolves with its exit code and output. */
  const codex = (prompt: string, path: string = env.PATH!) => {
    const childEnv: NodeJS.ProcessEnv = { ...env, PATH: path };
    const args = ["exec", "--skip-git-repo-check", "--json", "-s", "danger-full-access"];
    const child = spawn(CODEX, [...args, "--dangerously-bypass-hook-trust", prompt], {
      cwd: work,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.add(child);
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    return new Promise<{ code: number; out: string }>((resolve) =>
      child.on("close", (code) => (children.delete(child), resolve({ code: code ?? -1, out }))),
    );
  };
  const answer = (decision: "allow" | "deny", reason: string) =>
    eventually(held, (h) => h.length === 1, "a held call in the inbox", 60_000).then(async ([item]) => {
      const requestId = String(item.id).replace(/^tool:/, "");
      const r = await performOperation(s.app, approver, inboxOperations.answerToolApproval, {
        podId,
        answer: { requestId, decision, reason },
      });
      expect(r.ok).toBe(true);
    });

  beforeAll(async () => {
    s = await startTestServer(provider);
    fake = await fakeCodexApi((input) => `touch ${input.includes("deny-me") ? "denied.txt" : "allowed.txt"}`);
    const { podId: id, tokens } = await agentPod(s.url, "Codex pod", { codex: "implementer" });
    podId = id;
    expect(
      (await api(s.url, "POST", "/api/v1/users", { ...approver, password: "a long enough password" })).status,
    ).toBe(201);
    const member = { memberId: approver.email, kind: "human", displayName: "Pia", roles: ["approver"] };
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/members`, member)).status).toBe(201);
    const policy = {
      rules: [{ id: "touch", tool: "Bash", input: "touch *", action: "ask" }],
      ask: { minutes: 10, then: "deny" },
      unreachable: "closed",
    };
    const set = { type: "agent.policy.set", actor: "ops-admin", body: policy };
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, set)).status).toBe(201);

    const root = mkdtempSync(join(tmpdir(), "podwatch-codex-"));
    const codexHome = join(root, "codex-home");
    work = join(root, "work");
    mkdirSync(codexHome);
    mkdirSync(work);
    writeFileSync(
      join(codexHome, "config.toml"),
      [
        'model = "gpt-5-codex"',
        'model_provider = "fake"',
        "[model_providers.fake]",
        'name = "fake"',
        `base_url = "${fake.baseUrl}"`,
        'env_key = "FAKE_OPENAI_KEY"',
        'wire_api = "responses"',
        "",
      ].join("\n"),
    );
    const bin = await installedPodwatch(s.url);
    env = {
      NODE_ENV: "production",
      PATH: `${bin}:${process.env.PATH}`,
      HOME: root,
      CODEX_HOME: codexHome,
      FAKE_OPENAI_KEY: "sk-fake",
      PODWATCH_URL: s.url,
      PODWATCH_TOKEN: tokens["codex"]!,
      PODWATCH_SPOOL_DIR: join(root, "spool"),
    };
    const install = await new Promise<{ code: number; out: string }>((resolve) => {
      const child = spawn(join(bin, "podwatch"), ["hooks", "install", "--agent", "codex"], {
        cwd: work,
        env,
      });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("close", (code) => resolve({ code: code ?? -1, out }));
    });
    expect(install, install.out).toMatchObject({ code: 0 });
    expect(install.out).toContain("/hooks");
    const hooks = JSON.parse(readFileSync(join(codexHome, "hooks.json"), "utf8"));
    expect(hooks.hooks.PreToolUse[0].hooks[0]).toMatchObject({
      command: `podwatch hook --agent codex ${BLOCK_ON_FAILURE}`,
      timeout: 600,
    });
  }, 120_000);
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    await fake?.close();
    await s?.stop();
  });

  it("a person denies one gated shell call and allows the next; the tape tells both sessions", async () => {
    const denied = codex("please deny-me: make a file");
    await answer("deny", "not in this folder");
    const d = await denied;
    expect(d.code, d.out).toBe(0);
    expect(existsSync(join(work, "denied.txt"))).toBe(false);
    expect(fake.toolResults.join("\n")).toContain("not in this folder");

    const allowed = codex("please allow-me: make a file");
    await answer("allow", "fine");
    const a = await allowed;
    expect(a.code, a.out).toBe(0);
    expect(existsSync(join(work, "allowed.txt"))).toBe(true);

    const tape = await eventually(
      events,
      (e) =>
        e.filter((x) => x.type === "session.ended").length === 2 &&
        e.some((x) => x.type === "usage.reported"),
      "both sessions ended, with usage",
      20_000,
    );
    const sessions = tape.filter((e) => e.type === "session.started");
    expect(sessions.map((e) => e.body.via)).toEqual(["codex", "codex"]);
    const [first, second] = sessions.map((e) => e.meta?.sessionId);
    expect(first).not.toBe(second);
    const of = (sessionId: string | undefined, type: string) =>
      tape.filter((e) => e.meta?.sessionId === sessionId && e.type === type);
    expect(of(first, "prompt.submitted")[0]?.body.text).toBe("please deny-me: make a file");
    expect(of(second, "prompt.submitted")[0]?.body.text).toBe("please allow-me: make a file");

    const deniedCalls = of(first, "tool.call");
    expect(deniedCalls).toHaveLength(1);
    expect(deniedCalls[0]!.body).toMatchObject({
      tool: "Bash",
      phase: "started",
      input: "touch denied.txt",
      gate: { decision: "deny", by: "person", ruleId: "touch", reason: "not in this folder" },
    });
    const allowedCalls = of(second, "tool.call");
    expect(allowedCalls.map((c) => c.body.phase)).toEqual(["started", "succeeded"]);
    expect(allowedCalls[0]!.body.toolUseId).toBe(allowedCalls[1]!.body.toolUseId);
    expect(allowedCalls[0]!.body.gate).toMatchObject({ decision: "allow", by: "person", reason: "fine" });

    const usage = tape.filter((e) => e.type === "usage.reported");
    expect(usage.length).toBeGreaterThan(0);
    for (const u of usage) {
      expect(u.actor).toBe("codex");
      expect(u.body).toMatchObject({
        model: "gpt-5-codex",
        inputTokens: 1600,
        cacheReadTokens: 400,
        outputTokens: 200,
      });
      expect(u.body.costUsd).toBeGreaterThan(0);
    }
    expect(new Set(usage.map((u) => u.meta?.sessionId))).toEqual(new Set([first, second]));
    expect(of(first, "session.ended")).toHaveLength(1);
    expect(of(second, "session.ended")).toHaveLength(1);
  }, 120_000);

  it("without a podwatch command on the PATH, a gated call is blocked, not run", async () => {
    const r = await codex("please deny-me: once more", process.env.PATH ?? "/usr/bin:/bin");
    expect(r.code, r.out).toBe(0);
    expect(existsSync(join(work, "denied.txt"))).toBe(false);
    expect(fake.toolResults.at(-1)).toMatch(/blocked/i);
  }, 60_000);
});
