// The real Claude Code program, offline against a scripted fake of Anthropic's Messages API, with
// podwatch's http hooks installed: an idle session held at its Stop (the tool policy's idleHold)
// carries on with a person's Resume, or stops when the hold runs out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { installedPodwatch } from "../testing/installed-podwatch";
import { eventually } from "../testing/eventually";
import { startFakeAnthropic, type FakeAnthropic } from "../testing/fake-anthropic";
import { CLAUDE, claudeEnv, claudeProject, cliRoom, tapeOf } from "../testing/real-cli";

/** An idle session's prompt (the model answers it in words, and the turn ends), and a person's Resume. */
const IDLE_MARK = "PODWATCH-IDLE-TEST";
const RESUME = "PODWATCH-RESUME-MESSAGE now write the changelog";

describe.each(testProviders().slice(0, 1))("resuming the real Claude Code CLI on %s", (provider) => {
  let s: TestServer;
  let fake: FakeAnthropic;
  let bin: string;
  const room = cliRoom();

  beforeAll(async () => {
    s = await startTestServer(provider);
    fake = await startFakeAnthropic(() => ({ content: [{ type: "text", text: "ok" }] }));
    bin = await installedPodwatch(s.url);
  });
  afterAll(async () => {
    room.close();
    await fake?.close();
    await s?.stop();
  });

  const setPolicy = async (podId: string, body: Record<string, unknown>) => {
    const set = { type: "agent.policy.set", actor: "ops-admin", body };
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, set)).status).toBe(201);
  };
  const runClaude = (prompt: string, cwd: string, env: Record<string, string>) =>
    room.run(
      CLAUDE,
      ["-p", prompt, "--output-format", "json", "--permission-mode", "bypassPermissions"],
      cwd,
      {
        ...env,
        ...claudeEnv(fake.url),
      },
    );
  /** The nth time the session's Stop was held for a person's Resume. */
  const heldStop = async (podId: string, n: number) =>
    (
      await eventually(
        async () => (await tapeOf(s, podId)).filter((e) => e.type === "session.idle.held"),
        (held) => held.length >= n,
        `Stop held ${n} time(s)`,
        60_000,
      )
    )[n - 1]!;
  const deliveries = async (podId: string) =>
    (await tapeOf(s, podId))
      .filter((e) => e.type === "session.steer.delivered")
      .map((e) => [e.actor, e.body.steerId, e.body.via]);

  it("held at its Stop, a Resume with a message through the steer door: Claude Code carries on with it", async () => {
    const { podId, tokens } = await agentPod(s.url, "Resume Claude Code", { claude: "implementer" });
    await setPolicy(podId, { rules: [], idleHold: 120 });
    const { cwd, env } = await claudeProject(room, s, bin, tokens["claude"]!);
    const claude = runClaude(`${IDLE_MARK}: say ok`, cwd, env);
    const sessionId = (await heldStop(podId, 1)).meta!.sessionId!;
    const resume = { steerId: "resume-1", act: "resume", text: RESUME };
    expect(
      (await api(s.url, "POST", `/api/v1/pods/${podId}/sessions/${sessionId}/steer`, resume)).status,
    ).toBe(201);
    // It carried on: the model's next request holds the person's words (the Stop's block reason).
    await eventually(
      async () => fake.requests.filter((r) => JSON.stringify(r.messages).includes(RESUME)).length,
      (n) => n > 0,
      "the model asked again with the message",
      60_000,
    );
    // Idle again, held again: turning the hold off lets this Stop through and Claude Code ends.
    await heldStop(podId, 2);
    await setPolicy(podId, { rules: [], idleHold: 0 });
    const done = await claude;
    expect(done.code, done.stderr).toBe(0);
    expect(await deliveries(podId)).toEqual([["claude", "resume-1", "Stop"]]);
  });

  it("held at its Stop and nobody resumes: the Stop is let through when the hold runs out", async () => {
    const { podId, tokens } = await agentPod(s.url, "Idle Claude Code", { claude: "implementer" });
    await setPolicy(podId, { rules: [], idleHold: 2 });
    const { cwd, env } = await claudeProject(room, s, bin, tokens["claude"]!);
    const asked = fake.requests.length;
    const done = await runClaude(`${IDLE_MARK}: say ok once`, cwd, env);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ is_error: false });
    const tape = await tapeOf(s, podId);
    expect(tape.filter((e) => e.type === "session.idle.held")).toHaveLength(1);
    expect(await deliveries(podId)).toEqual([]);
    // Let through, not sent on: no request carried on after the Stop.
    const mine = fake.requests.slice(asked).filter((r) => JSON.stringify(r.messages).includes(IDLE_MARK));
    expect(mine.filter((r) => r.tools?.length)).toHaveLength(1);
  });
});
