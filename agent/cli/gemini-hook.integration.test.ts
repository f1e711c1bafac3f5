// `podwatch hook --agent gemini` as Gemini CLI runs it (the real bin, the hook's JSON on stdin)
// against a real server: Gemini's events on its own door, a decision in Gemini's shape, and a
// gated call that never fails open: podwatch gone with a closed rule, no token, or a `podwatch`
// that cannot start at all (the installed entry's own fallback).
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startServerOn } from "../../server/testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../../server/testing/test-databases";
import type { RunningServer } from "../../server/start-server";
import { runHookProcess } from "../hooks/testing/run-hook-process";
import { geminiHooks } from "../hooks/gemini-settings-snippet";

const SESSION = "0b8e3f52-6c1d-4a7e-9f20-3d5c8a1b7e64";
const base = (event: string) => ({
  session_id: SESSION,
  transcript_path: "",
  cwd: "/home/dev/shop",
  hook_event_name: event,
  timestamp: new Date().toISOString(),
});
const shell = (command: string) => ({
  ...base("BeforeTool"),
  tool_name: "run_shell_command",
  tool_input: { command, description: command },
});
const GEMINI = ["--agent", "gemini"];

describe.each(testProviders())("podwatch hook --agent gemini on %s", (provider) => {
  let db: TestDatabase;
  let server: RunningServer;
  let podId: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
    server = await startServerOn(db, {});
    const pod = await agentPod(server.url, "Gemini hooks", { gem: "implementer" });
    podId = pod.podId;
    env = {
      PODWATCH_URL: server.url,
      PODWATCH_TOKEN: pod.tokens.gem!,
      PODWATCH_SPOOL_DIR: join(mkdtempSync(join(tmpdir(), "pw-gemini-")), "spool"),
    };
    const policy = {
      rules: [
        { id: "no-rm", tool: "run_shell_command", input: "*rm -rf*", action: "deny" },
        { id: "ls", tool: "run_shell_command", input: "*ls*", action: "allow" },
      ],
      unreachable: "closed",
    };
    const set = await api(server.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "agent.policy.set",
      actor: "ops-admin",
      body: policy,
    });
    expect(set.status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("records Gemini's events as gemini-cli's and answers a rule's decision in Gemini's shape", async () => {
    const start = await runHookProcess({ ...base("SessionStart"), source: "startup" }, env, GEMINI);
    expect([start.code, start.json]).toEqual([0, {}]);
    const rm = await runHookProcess(shell("rm -rf /"), env, GEMINI);
    expect(rm.code).toBe(0);
    expect(rm.json).toMatchObject({ decision: "deny" });
    expect((rm.json as { reason: string }).reason).toContain("no-rm");
    const ls = await runHookProcess(shell("ls"), env, GEMINI);
    expect([ls.code, ls.json]).toMatchObject([0, { decision: "allow" }]);
    const tape = (await api(server.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=100`)).body
      .events as { type: string; actor: string; body: Record<string, any> }[];
    expect(tape.find((e) => e.type === "session.started")?.body.via).toBe("gemini-cli");
    expect(tape.filter((e) => e.type === "tool.call").map((e) => e.body.gate?.decision)).toEqual([
      "deny",
      "allow",
    ]);
  });

  it("without a token, or with podwatch gone and a closed rule, a BeforeTool is denied (exit 0, Gemini's deny)", async () => {
    const noToken = await runHookProcess(shell("ls"), { ...env, PODWATCH_TOKEN: "" }, GEMINI);
    expect(noToken.code).toBe(0);
    expect(noToken.json).toMatchObject({ decision: "deny" });
    expect(String((noToken.json as { reason: string }).reason)).toContain("PODWATCH_TOKEN");
    // The closed rule was cached from the server's answers above; then the server goes.
    await server.close();
    const gone = await runHookProcess(shell("ls"), env, GEMINI);
    expect(gone.code).toBe(0);
    expect(gone.json).toMatchObject({ decision: "deny" });
    expect(String((gone.json as { reason: string }).reason)).toContain("unreachable");
    // An observation is spooled for later and answered at once.
    const prompt = await runHookProcess({ ...base("BeforeAgent"), prompt: "hi" }, env, GEMINI);
    expect([prompt.code, prompt.json]).toEqual([0, {}]);
  });

  it("the installed BeforeTool entry blocks when podwatch cannot start: exit 2 with a reason", () => {
    const entry = (geminiHooks("/nonexistent/podwatch").BeforeTool as { hooks: { command: string }[] }[])[0]!;
    const r = spawnSync("/bin/sh", ["-c", entry.hooks[0]!.command], { input: "{}", encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("blocked");
  });
});
