// The real Claude Code program (the dev dependency's `claude`), offline against a scripted fake of
// Anthropic's Messages API, with podwatch's hooks installed by `podwatch hooks install` from the
// kit the server serves, in both forms. On the tape: the session's start, its prompt, a tool call
// pre and post joined, a gated command a person denies (it does not run) and one they allow (it
// runs) — answered through the inbox's own operation —, usage priced as Claude Code prices it,
// and the session's end.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { installedPodwatch } from "../testing/installed-podwatch";
import { eventually } from "../testing/eventually";
import { startFakeAnthropic, toolResults, type FakeAnthropic, type Reply } from "../testing/fake-anthropic";
import {
  answerHeldCalls,
  CLAUDE,
  claudeEnv,
  cliRoom,
  podWithApprover,
  tapeOf,
  type Ev,
} from "../testing/real-cli";

const MARK = "PODWATCH-CLI-TEST";

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
  const room = cliRoom();

  beforeAll(async () => {
    s = await startTestServer(provider);
    fake = await startFakeAnthropic(script);
    bin = await installedPodwatch(s.url);
  });
  afterAll(async () => {
    room.close();
    await fake?.close();
    await s?.stop();
  });

  const events = (podId: string) => tapeOf(s, podId);
  const gatedPod = (name: string) =>
    podWithApprover(s, name, "claude", {
      rules: [{ id: "gated", tool: "Bash", input: "touch gated-*", action: "ask" }],
      ask: { minutes: 10, then: "deny" },
      unreachable: "closed",
    });
  /** A person answers each held call from the inbox: the denied file is refused, the allowed one allowed. */
  const answerHeld = (podId: string, until: Promise<unknown>) =>
    answerHeldCalls(s, podId, until, async (e) =>
      String(e.body.input).includes("gated-denied")
        ? { decision: "deny", reason: "not this file" }
        : { decision: "allow" },
    );

  async function session(form: "command" | "http") {
    const { podId, token } = await gatedPod(`Claude Code ${form}`);
    const home = room.folder("podwatch-claude-home-");
    const cwd = room.folder("podwatch-claude-project-");
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      PODWATCH_URL: s.url,
      PODWATCH_TOKEN: token,
      PODWATCH_SPOOL_DIR: join(home, "spool"),
    };
    const install = await room.run(
      "podwatch",
      ["hooks", "install", ...(form === "http" ? ["--http"] : [])],
      cwd,
      env,
    );
    expect(install.code, install.stderr).toBe(0);
    const settings = readFileSync(join(cwd, ".claude", "settings.local.json"), "utf8");
    expect(settings).toContain(form === "http" ? "/api/v1/hooks/claude-code" : '"podwatch hook"');

    const claude = room.run(
      CLAUDE,
      ["-p", `${MARK}: make the files`, "--output-format", "json", "--permission-mode", "bypassPermissions"],
      cwd,
      { ...env, ...claudeEnv(fake.url) },
    );
    expect(await answerHeld(podId, claude)).toBe(2);
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
