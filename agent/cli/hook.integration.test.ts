// `podwatch hook` as Claude Code runs it (stdin JSON, PODWATCH_URL / PODWATCH_TOKEN, exit code,
// stdout JSON) against a real server: every recorded hook kind, gated calls, a server restart in
// the middle of a session (spool and replay), the unreachable rule, and usage from a transcript.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOK_FIXTURES, readHookFixture, type HookFixture } from "../../server/hooks/fixtures";
import { agentPod, api, startServerOn } from "../../server/testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../../server/testing/test-databases";
import type { RunningServer } from "../../server/start-server";
import { runHookProcess } from "../hooks/testing/run-hook-process";
import { assistantLines, userLine } from "../hooks/testing/transcript";

type Ev = {
  id: string;
  seq: number;
  type: string;
  actor: string;
  body: Record<string, any>;
  meta: { sessionId?: string } | null;
};
const SESSION = "5f2b8c1e-9a47-4d3b-b6a2-7c0e1d9f4a31";
const describeTool = (e: Ev) =>
  e.type === "tool.call" ? `tool.call:${e.body.tool}:${e.body.phase}` : e.type;

describe.each(testProviders())("podwatch hook against a real server on %s", (provider) => {
  let db: TestDatabase;
  let server: RunningServer;
  let port: number;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
    server = await startServerOn(db, { PODWATCH_DEADLINE_MIN_MS: "100" });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const url = () => `http://127.0.0.1:${port}`;
  const events = async (podId: string): Promise<Ev[]> =>
    (await api(url(), "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events;
  const setup = async (name: string) => {
    const { podId, tokens } = await agentPod(url(), name, { claude: "implementer" });
    const spoolDir = join(mkdtempSync(join(tmpdir(), "pw-hook-")), "spool");
    const env = { PODWATCH_URL: url(), PODWATCH_TOKEN: tokens.claude!, PODWATCH_SPOOL_DIR: spoolDir };
    const spoolLines = () =>
      (
        readdirSync(spoolDir)
          .filter((f) => f.endsWith(".jsonl"))
          .map((f) => readFileSync(join(spoolDir, f), "utf8"))
          .join("")
          .match(/\n/g) ?? []
      ).length;
    return {
      podId,
      env,
      spoolDir,
      spoolLines,
      hook: (p: unknown, args: string[] = []) => runHookProcess(p, env, args),
    };
  };
  const fixture = (name: HookFixture) => readHookFixture(name);
  const policy = async (podId: string, body: object) =>
    expect(
      (
        await api(url(), "POST", `/api/v1/pods/${podId}/events`, {
          type: "agent.policy.set",
          actor: "ops-admin",
          body,
        })
      ).status,
    ).toBe(201);

  it("takes every recorded hook kind on stdin and prints Claude Code's answer (exit 0, {})", async () => {
    const { podId, hook, spoolLines } = await setup("every-kind");
    for (const name of HOOK_FIXTURES) {
      const r = await hook(fixture(name));
      expect([name, r.code, r.json, r.stderr]).toEqual([name, 0, {}, ""]);
    }
    const all = (await events(podId)).filter((e) => e.actor === "claude");
    const tape = all.filter((e) => e.meta?.sessionId === SESSION);
    // The subagent's start and stop also open and close its own session, under this one.
    expect(all.filter((e) => e.meta?.sessionId !== SESSION).map((e) => [e.meta?.sessionId, e.type])).toEqual([
      [`${SESSION}/a7c41e09`, "session.started"],
      [`${SESSION}/a7c41e09`, "session.ended"],
    ]);
    expect(tape.map(describeTool)).toEqual([
      "session.started",
      "prompt.submitted",
      "tool.call:Read:started",
      "tool.call:Read:succeeded",
      "tool.call:Bash:started",
      "tool.call:Bash:succeeded",
      "tool.call:Bash:failed",
      "tool.call:Bash:started",
      "agent.notified",
      "subagent",
      "subagent",
      "session.compacted",
      "checkpoint",
      "note",
      "session.ended",
    ]);
    expect(spoolLines()).toBe(0);
  });

  it("holds a gated call for a person's answer and prints the decision; a deny rule answers at once with its reason", async () => {
    const { podId, hook } = await setup("gated");
    await policy(podId, {
      rules: [
        { id: "push", tool: "Bash", input: "git push*", action: "ask" },
        { id: "no-rm", tool: "Bash", input: "rm -rf*", action: "deny" },
      ],
      ask: { minutes: 5, then: "deny" },
    });
    const held = hook(fixture("pre-tool-use-git-push"), ["--timeout", "120"]);
    let requestId: string | undefined;
    for (let i = 0; i < 300 && !requestId; i++) {
      requestId = (await events(podId)).find((e) => e.type === "tool.approval.requested")?.body.requestId;
      if (!requestId) await new Promise((r) => setTimeout(r, 100));
    }
    expect(requestId).toBeTruthy();
    const answered = await api(url(), "POST", `/api/v1/pods/${podId}/events`, {
      type: "tool.approval.answered",
      actor: "ops-admin",
      body: { requestId, decision: "allow", reason: "ship it" },
    });
    expect([answered.status, answered.body]).toEqual([201, expect.anything()]);
    const allowed = await held;
    expect([allowed.code, allowed.json]).toEqual([
      0,
      {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "allow",
          permissionDecisionReason: expect.stringContaining("ship it"),
        },
      },
    ]);
    // Nobody answers: the hook still answers inside its own timeout (Claude Code would kill it at 6 s).
    const unanswered = await hook(
      { ...fixture("pre-tool-use-git-push"), tool_use_id: "toolu_nobody_answers" },
      ["--timeout", "6"],
    );
    expect(unanswered.code).toBe(0);
    expect(unanswered.ms).toBeLessThan(6000);
    const denied = await hook(fixture("permission-request"));
    expect([denied.code, denied.json]).toEqual([
      0,
      {
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "deny", message: expect.stringContaining("no-rm") },
        },
      },
    ]);
  });

  it("loses no hook event while the server restarts: spooled in order, replayed once, the spool emptied", async () => {
    const { podId, hook, spoolLines, spoolDir } = await setup("restart");
    const order: HookFixture[] = ["session-start", "user-prompt-submit", "pre-tool-use-read"];
    for (const name of order) expect((await hook(fixture(name))).code).toBe(0);
    await server.close();
    // Down: observations and an ungated PreToolUse are answered {} at once (exit 0) and spooled.
    // Two identical notifications are two events (the hook's own id field tells them apart).
    const whileDown: HookFixture[] = [
      "post-tool-use-read",
      "pre-tool-use-bash",
      "post-tool-use-bash",
      "notification",
      "notification",
      "pre-compact",
    ];
    for (const name of whileDown) {
      const r = await hook(fixture(name));
      expect([name, r.code, r.json]).toEqual([name, 0, {}]);
      expect(r.ms).toBeLessThan(8000); // never near the hook's own timeout: nothing waited on the dead server
    }
    expect(spoolLines()).toBe(whileDown.length);
    const spoolFile = readdirSync(spoolDir).find((f) => f.endsWith(".jsonl"))!;
    const spooled = readFileSync(join(spoolDir, spoolFile));
    server = await startServerOn(db, { PORT: String(port), PODWATCH_DEADLINE_MIN_MS: "100" });
    const after = await hook(fixture("stop-note"));
    expect([after.code, after.json]).toEqual([0, {}]);
    expect(spoolLines()).toBe(0);
    const tape = (await events(podId)).filter((e) => e.actor === "claude");
    expect(tape.map(describeTool)).toEqual([
      "session.started",
      "prompt.submitted",
      "tool.call:Read:started",
      "tool.call:Read:succeeded",
      "tool.call:Bash:started",
      "tool.call:Bash:succeeded",
      "agent.notified",
      "agent.notified",
      "session.compacted",
      "note",
    ]);
    // The Bash PreToolUse was decided by the hook's rule while podwatch was down (open: Claude Code's own flow), and says so.
    expect(tape[4]!.body.gate).toEqual({
      decision: "allow",
      by: "unreachable",
      reason: expect.stringContaining("open"),
    });
    expect(new Set(tape.map((e) => e.id)).size).toBe(tape.length);
    expect(tape.map((e) => e.seq)).toEqual([...tape.map((e) => e.seq)].sort((a, b) => a - b));
    // The same spool replayed a second time (a replayer killed before it could truncate) stores nothing new.
    const before = (await events(podId)).length;
    writeFileSync(join(spoolDir, spoolFile), spooled, { mode: 0o600 });
    expect((await hook(fixture("session-end"))).code).toBe(0);
    expect((await events(podId)).slice(before).map((e) => e.type)).toEqual(["session.ended"]);
    expect(spoolLines()).toBe(0);
  });

  it("hooks fired at once after a restart replay the spool once, in order, and none of theirs is lost", async () => {
    const { podId, hook, spoolLines } = await setup("concurrent");
    const note = (message: string) => ({ ...fixture("notification"), message });
    expect((await hook(fixture("session-start"))).code).toBe(0);
    await server.close();
    const spooled = Array.from({ length: 6 }, (_, i) => `while down ${i}`);
    for (const m of spooled) expect((await hook(note(m))).json).toEqual({});
    server = await startServerOn(db, { PORT: String(port), PODWATCH_DEADLINE_MIN_MS: "100" });
    const together = ["at once A", "at once B", "at once C", "at once D"];
    const runs = await Promise.all(together.map((m) => hook(note(m))));
    expect(runs.map((r) => [r.code, r.json])).toEqual(together.map(() => [0, {}]));
    const messages = (await events(podId))
      .filter((e) => e.type === "agent.notified")
      .map((e) => e.body.message as string);
    expect(messages.slice(0, spooled.length)).toEqual(spooled);
    expect([...messages.slice(spooled.length)].sort()).toEqual(together);
    expect(spoolLines()).toBe(0);
  });

  it("with the agent's rule closed, a gated call is denied while podwatch is down, and the denial is reported later", async () => {
    const { podId, hook, spoolLines } = await setup("closed");
    await policy(podId, { rules: [], unreachable: "closed" });
    expect((await hook(fixture("session-start"))).code).toBe(0); // caches the rule the server states
    await server.close();
    const r = await hook(fixture("pre-tool-use-git-push"));
    expect([r.code, r.json]).toEqual([
      0,
      {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: expect.stringContaining("podwatch is unreachable"),
        },
      },
    ]);
    const perm = await hook(fixture("permission-request"));
    expect(perm.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: expect.stringContaining("unreachable") },
      },
    });
    expect(spoolLines()).toBe(1); // the PreToolUse's decision, to report
    server = await startServerOn(db, { PORT: String(port), PODWATCH_DEADLINE_MIN_MS: "100" });
    expect((await hook(fixture("notification"))).code).toBe(0);
    const calls = (await events(podId)).filter((e) => e.type === "tool.call");
    expect(calls.map((c) => [c.body.toolUseId, c.body.input, c.body.gate])).toEqual([
      [
        fixture("pre-tool-use-git-push").tool_use_id,
        "git push origin feature/orders-pagination",
        { decision: "deny", by: "unreachable", reason: expect.stringContaining("closed") },
      ],
    ]);
    expect(calls[0]!.meta?.sessionId).toBe(SESSION);
    expect(spoolLines()).toBe(0);
  });

  it("reports token usage from the transcript at each Stop, incrementally, never twice", async () => {
    const { podId, hook } = await setup("usage");
    const transcript = join(mkdtempSync(join(tmpdir(), "pw-transcript-")), `${SESSION}.jsonl`);
    const u = (i: number, o: number, r: number, w: number) => ({
      input_tokens: i,
      output_tokens: o,
      cache_read_input_tokens: r,
      cache_creation_input_tokens: w,
    });
    const turn1 = [
      userLine(SESSION, "Add pagination"),
      ...assistantLines(SESSION, {
        model: "claude-sonnet-4-5-20250929",
        id: "msg_01",
        usage: u(12, 340, 15000, 2000),
        blocks: 3,
      }),
      ...assistantLines(SESSION, {
        model: "claude-sonnet-4-5-20250929",
        id: "msg_02",
        usage: u(3, 60, 17000, 0),
      }),
    ];
    writeFileSync(transcript, `${turn1.join("\n")}\n`);
    const stop = { ...fixture("stop-note"), transcript_path: transcript };
    expect((await hook(stop)).json).toEqual({});
    const usage = async () => (await events(podId)).filter((e) => e.type === "usage.reported");
    let reported = await usage();
    expect(
      reported.map((e) => [
        e.body.model,
        e.body.inputTokens,
        e.body.outputTokens,
        e.body.cacheReadTokens,
        e.body.cacheWriteTokens,
        e.body.source,
        e.meta?.sessionId,
      ]),
    ).toEqual([["claude-sonnet-4-5-20250929", 15, 400, 32000, 2000, "transcript", SESSION]]);
    // $3 in, $15 out, $0.30 cache read, $3.75 cache write per million tokens.
    expect(reported[0]!.body.costUsd).toBeCloseTo((15 * 3 + 400 * 15 + 32000 * 0.3 + 2000 * 3.75) / 1e6, 9);
    // The next turn, with a model the price table does not know: tokens, no cost. A line still being written waits.
    const turn2 = assistantLines(SESSION, {
      model: "claude-opus-4-9",
      id: "msg_03",
      usage: u(1, 2, 3, 4),
      blocks: 1,
    })[0]!;
    const turn3 = assistantLines(SESSION, {
      model: "claude-sonnet-4-5-20250929",
      id: "msg_04",
      usage: u(5, 5, 5, 5),
      blocks: 1,
    })[0]!;
    appendFileSync(transcript, `${turn2}\n${turn3.slice(0, 30)}`);
    expect((await hook({ ...stop, last_assistant_message: "Second stop" })).code).toBe(0);
    reported = await usage();
    expect(reported.slice(1).map((e) => [e.body.model, e.body.inputTokens, e.body.costUsd])).toEqual([
      ["claude-opus-4-9", 1, undefined],
    ]);
    appendFileSync(transcript, `${turn3.slice(30)}\n`);
    // The HTTP form's companion: usage only, the hook itself not sent again.
    expect(
      (await hook({ ...fixture("session-end"), transcript_path: transcript }, ["--usage-only"])).json,
    ).toEqual({});
    reported = await usage();
    expect(reported.slice(2).map((e) => [e.body.model, e.body.inputTokens])).toEqual([
      ["claude-sonnet-4-5-20250929", 5],
    ]);
    expect((await events(podId)).filter((e) => e.type === "session.ended")).toEqual([]);
    expect((await hook(stop)).code).toBe(0);
    expect((await usage()).length).toBe(3); // nothing new in the transcript: nothing reported
    expect(statSync(transcript).size).toBeGreaterThan(0);
  });

  it("fails soft, never blocking the agent: bad input or configuration exits 1 with a reason", async () => {
    const { env, hook } = await setup("bad-input");
    expect(await hook("not json")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("not Claude Code's hook input"),
    });
    expect(await runHookProcess(fixture("notification"), { ...env, PODWATCH_URL: "" })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("PODWATCH_URL"),
    });
    expect(
      await runHookProcess(fixture("notification"), { ...env, PODWATCH_TOKEN: "pwa_wrong" }),
    ).toMatchObject({ code: 1, stderr: expect.stringContaining("refused") });
  });
});
