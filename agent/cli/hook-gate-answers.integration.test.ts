// `podwatch hook` always answers a gated call (exit 0 and a decision), whatever it or podwatch
// cannot read: the agent's rule decides it (closed: deny, open: no opinion); with no pod
// configured, it is denied. Other hooks keep exit 1. And a crossed hold_tools budget asks a person
// about a call an ask rule covers. Real bin, real server; SQLite and, with TEST_DATABASE_URL, PostgreSQL.
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readHookFixture } from "../../server/hooks/fixtures";
import { agentPod, api, startServerOn } from "../../server/testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../../server/testing/test-databases";
import type { RunningServer } from "../../server/start-server";
import { eventually } from "../../server/testing/eventually";
import { runHookProcess } from "../hooks/testing/run-hook-process";
import { Spool } from "../hooks/spool";

type Ev = { type: string; body: Record<string, any> };
const RULES = [
  { id: "push", tool: "Bash", input: "git push*", action: "ask" },
  { id: "no-rm", tool: "Bash", input: "rm -rf*", action: "deny" },
];
const NUL = '"a\\u0000b"';

describe.each(testProviders())("podwatch hook answers every gated call, on %s", (provider) => {
  let db: TestDatabase;
  let server: RunningServer;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
    server = await startServerOn(db, { PODWATCH_DEADLINE_MIN_MS: "100" });
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const ofType = async (podId: string, type: string): Promise<Ev[]> =>
    (await api(server.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events.filter(
      (e: Ev) => e.type === type,
    );
  const admin = (podId: string, body: unknown) =>
    api(server.url, "POST", `/api/v1/pods/${podId}/events`, body);
  const setup = async (
    name: string,
    policy: object,
    agents: Record<string, string> = { claude: "implementer" },
  ) => {
    const { podId, tokens } = await agentPod(server.url, name, agents);
    expect((await admin(podId, { type: "agent.policy.set", actor: "ops-admin", body: policy })).status).toBe(
      201,
    );
    const env = {
      PODWATCH_URL: server.url,
      PODWATCH_TOKEN: tokens["claude"]!,
      PODWATCH_SPOOL_DIR: join(mkdtempSync(join(tmpdir(), "pw-gate-answers-")), "spool"),
    };
    return {
      podId,
      tokens,
      env,
      hook: (p: unknown, e: Record<string, string> = {}) => runHookProcess(p, { ...env, ...e }),
    };
  };
  const rmWith = (fixture: "pre-tool-use-bash" | "permission-request", extra: string) =>
    JSON.stringify({
      ...readHookFixture(fixture),
      tool_input: { command: "rm -rf /", description: "X" },
    }).replace('"X"', extra);
  const deny = (event: "PreToolUse" | "PermissionRequest", reason: string) =>
    event === "PreToolUse"
      ? {
          hookSpecificOutput: {
            hookEventName: event,
            permissionDecision: "deny",
            permissionDecisionReason: expect.stringContaining(reason),
          },
        }
      : {
          hookSpecificOutput: {
            hookEventName: event,
            decision: { behavior: "deny", message: expect.stringContaining(reason) },
          },
        };

  it("input podwatch refuses (a NUL in the tool's description) is denied with exit 0 under a closed rule, and gets no opinion under an open one", async () => {
    const closed = await setup("cmd-nul-closed", { rules: RULES, unreachable: "closed" });
    const pre = await closed.hook(rmWith("pre-tool-use-bash", NUL));
    expect([pre.code, pre.json]).toEqual([0, deny("PreToolUse", "nul_character")]);
    const perm = await closed.hook(rmWith("permission-request", NUL));
    expect([perm.code, perm.json]).toEqual([0, deny("PermissionRequest", "this agent's rule is to deny")]);
    const open = await setup("cmd-nul-open", { rules: RULES, unreachable: "open" });
    const r = await open.hook(rmWith("pre-tool-use-bash", NUL));
    expect([r.code, r.json]).toEqual([0, {}]);
  });

  it("input the hook itself cannot read (cut short, too large) or a missing configuration still answers a gated call with exit 0", async () => {
    const { hook } = await setup("cmd-unreadable", { rules: RULES, unreachable: "closed" });
    expect((await hook(readHookFixture("session-start"))).code).toBe(0); // caches the closed rule the server states
    const cut = rmWith("pre-tool-use-bash", '"x", "y": tru');
    expect(await hook(cut)).toMatchObject({
      code: 0,
      json: deny("PreToolUse", "not Claude Code's hook input"),
      stderr: expect.stringContaining("not Claude Code's hook input"),
    });
    const huge = rmWith("pre-tool-use-bash", JSON.stringify("x".repeat(4_300_000)));
    expect(await hook(huge)).toMatchObject({ code: 0, json: deny("PreToolUse", "larger than 4 MiB") });
    // Nested past what JSON.stringify can walk (JSON.parse takes it): the hook's own failure, still answered by the rule.
    const deep = rmWith("pre-tool-use-bash", `${"[".repeat(20_000)}${"]".repeat(20_000)}`);
    expect(await hook(deep)).toMatchObject({
      code: 0,
      json: deny("PreToolUse", "this agent's rule is to deny"),
    });
    // No pod to ask: no rule to read either, so a gated call is denied; an observation still exits 1.
    expect(await hook(rmWith("permission-request", '"ok"'), { PODWATCH_TOKEN: "" })).toMatchObject({
      code: 0,
      json: deny("PermissionRequest", "PODWATCH_TOKEN"),
    });
    expect(await hook(readHookFixture("pre-tool-use-git-push"), { PODWATCH_URL: "" })).toMatchObject({
      code: 0,
      json: deny("PreToolUse", "PODWATCH_URL"),
    });
    expect(await hook(readHookFixture("notification"), { PODWATCH_URL: "" })).toMatchObject({
      code: 1,
      stdout: "",
    });
    expect(await hook(cut.replace("PreToolUse", "PostToolUse"))).toMatchObject({ code: 1, stdout: "" });
  });

  it("podwatch's own decision stands when the rule cannot be cached beside the spool (a folder where its file goes)", async () => {
    const { hook, env } = await setup("cmd-rule-unwritable", { rules: RULES, unreachable: "open" });
    // The agent could make this with an allowed mkdir: writing the cached rule then fails on every answer.
    mkdirSync(new Spool(env.PODWATCH_SPOOL_DIR, env.PODWATCH_URL, env.PODWATCH_TOKEN).sibling(".rule"), {
      recursive: true,
    });
    expect(await hook(rmWith("pre-tool-use-bash", '"ok"'))).toMatchObject({
      code: 0,
      json: deny("PreToolUse", "rm -rf"),
    });
    // Nor when the spool itself cannot be read: podwatch is reachable and is asked.
    mkdirSync(new Spool(env.PODWATCH_SPOOL_DIR, env.PODWATCH_URL, env.PODWATCH_TOKEN).file, {
      recursive: true,
    });
    expect(await hook(rmWith("pre-tool-use-bash", '"ok"'))).toMatchObject({
      code: 0,
      json: deny("PreToolUse", "rm -rf"),
    });
  });

  it("a crossed hold_tools budget asks a person about a call an ask rule covers: held, answered, recorded", async () => {
    const { podId, tokens, hook } = await setup(
      "cmd-budget-ask",
      { rules: RULES, ask: { minutes: 5, then: "allow" } },
      { claude: "implementer", chair: "chair" },
    );
    const chair = (type: string, body: object) =>
      api(
        server.url,
        "POST",
        `/api/v1/pods/${podId}/events`,
        { type, actor: "chair", body },
        { token: tokens["chair"]! },
      );
    expect((await chair("pod.scope_agreed", { scope: "s", successCriteria: ["c"] })).status).toBe(201);
    expect((await chair("pod.started", {})).status).toBe(201);
    expect(
      (
        await api(server.url, "PUT", `/api/v1/pods/${podId}/budgets/b-tok`, {
          agentId: "claude",
          metric: "tokens",
          limit: 1000,
          then: "hold_tools",
        })
      ).status,
    ).toBe(200);
    const usage = { type: "usage.reported", actor: "claude", body: { model: "m", inputTokens: 1100 } };
    expect(
      (await api(server.url, "POST", `/api/v1/pods/${podId}/events`, usage, { token: tokens["claude"]! }))
        .status,
    ).toBe(201);
    await eventually(
      () => ofType(podId, "budget.exceeded"),
      (l) => l.length === 1,
      "the budget to be crossed",
    );

    const held = hook({ ...readHookFixture("pre-tool-use-git-push"), tool_use_id: "toolu_cmd_budget" });
    const [asked] = await eventually(
      () => ofType(podId, "tool.approval.requested"),
      (l) => l.length > 0,
      "the approval request",
    );
    expect(asked!.body.deadline).toMatchObject({ then: "answer", answer: "deny" });
    expect(
      (
        await admin(podId, {
          type: "tool.approval.answered",
          actor: "ops-admin",
          body: { requestId: asked!.body.requestId, decision: "allow", reason: "go" },
        })
      ).status,
    ).toBe(201);
    const r = await held;
    expect([r.code, r.json]).toEqual([
      0,
      {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          permissionDecisionReason: "go",
        },
      },
    ]);
    expect(
      (await ofType(podId, "tool.call"))
        .filter((c) => c.body.toolUseId === "toolu_cmd_budget")
        .map((c) => c.body.gate.by),
    ).toEqual(["person"]);
  }, 60_000);
});
