// The real Claude Code program (the dev dependency's `claude`), offline against a scripted fake of
// Anthropic's Messages API, with podwatch's http hooks installed by `podwatch hooks install --http`.
// A person steers the running session through the steer operation: their message reaches the
// model in the very next request (the PostToolUse hook added it as context), and their interrupt
// ends the turn at the next hook, so the step the model planned after it never runs.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { installedPodwatch } from "../testing/installed-podwatch";
import { startFakeAnthropic, toolResults, type FakeAnthropic, type Reply } from "../testing/fake-anthropic";
import { CLAUDE, claudeEnv, claudeProject, cliRoom, podWithApprover } from "../testing/real-cli";
import {
  deliveries,
  holdingPolicy,
  STEER_MESSAGE,
  STEER_STEPS,
  steerWhileHeld,
} from "../testing/steer-real-cli";

const MARK = "PODWATCH-STEER-TEST";

function script(r: Parameters<Parameters<typeof startFakeAnthropic>[0]>[0]): Reply {
  const done = toolResults(r).length;
  if (!r.tools?.length || !JSON.stringify(r.messages).includes(MARK))
    return { content: [{ type: "text", text: "ok" }] };
  if (done < STEER_STEPS.length)
    return {
      content: [
        { type: "tool_use", id: `toolu_steer_${done}`, name: "Bash", input: { command: STEER_STEPS[done] } },
      ],
    };
  return { content: [{ type: "text", text: "All done." }] };
}

describe.each(testProviders().slice(0, 1))("steering the real Claude Code CLI on %s", (provider) => {
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

  it("a message reaches the model at the next hook; an interrupt ends the turn before the next step", async () => {
    const { podId, token } = await podWithApprover(s, "Steer Claude Code", "claude", holdingPolicy("Bash"));
    const { cwd, env } = await claudeProject(room, s, bin, token);
    const claude = room.run(
      CLAUDE,
      ["-p", `${MARK}: make the files`, "--output-format", "json", "--permission-mode", "bypassPermissions"],
      cwd,
      { ...env, ...claudeEnv(fake.url) },
    );
    expect(await steerWhileHeld(s, podId, claude)).toBe(2);
    const done = await claude;

    // The message: in the model's request right after the first held call ran, not before it.
    const ours = fake.requests.filter((r) => JSON.stringify(r.messages).includes(MARK) && r.tools?.length);
    const heard = ours.map((r) => [
      toolResults(r).length,
      JSON.stringify(r.messages).includes(STEER_MESSAGE),
    ]);
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

    expect(await deliveries(s, podId)).toEqual([
      ["claude", "steer-1", "PostToolUse"],
      ["claude", "steer-2", "PostToolUse"],
    ]);
  });
});
