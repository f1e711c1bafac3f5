// The real Codex CLI (the dev dependency's `codex exec`), offline against a scripted fake of the
// Responses API, with podwatch's hooks installed by `podwatch hooks install --agent codex`. A person
// steers the running session: their message reaches the model in the very next request (Codex adds
// the PostToolUse hook's additionalContext as a developer message), and their interrupt denies
// every tool call after it, so no command runs again in the turn (Codex ends no turn for a hook's
// answer once it is under way), the model reads why, and the turn's Stop delivers it.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { installedPodwatch } from "../testing/installed-podwatch";
import { codexOutputs, scriptedCodexApi, type FakeCodexApi } from "../testing/codex-fake-api";
import { cliRoom, CODEX, codexConfig, podWithApprover, tapeOf } from "../testing/real-cli";
import {
  deliveries,
  holdingPolicy,
  STEER_MESSAGE,
  STEER_STEPS,
  STEER_STOP,
  steerWhileHeld,
} from "../testing/steer-real-cli";

const MARK = "PODWATCH-STEER-CODEX";
const AND_THEN = "touch after-interrupt-2.txt";

describe.each(testProviders().slice(0, 1))("steering the real Codex CLI on %s", (provider) => {
  let s: TestServer;
  let fake: FakeCodexApi;
  let bin: string;
  const room = cliRoom();

  beforeAll(async () => {
    s = await startTestServer(provider);
    // The model runs its steps whatever it is told (one more than the others' after the interrupt):
    // only the hooks keep a step from running.
    fake = await scriptedCodexApi((input) => {
      const next = [...STEER_STEPS, AND_THEN][codexOutputs(input).length];
      return next ? { command: next } : { text: "All done." };
    });
    bin = await installedPodwatch(s.url);
  });
  afterAll(async () => {
    room.close();
    await fake?.close();
    await s?.stop();
  });

  it("a message reaches the model at the next hook; an interrupt denies every call after it until the turn ends", async () => {
    const { podId, token } = await podWithApprover(s, "Steer Codex", "codex", holdingPolicy("Bash"));
    const root = room.folder("podwatch-steer-codex-");
    const codexHome = join(root, "codex-home");
    const cwd = join(root, "work");
    mkdirSync(codexHome);
    mkdirSync(cwd);
    writeFileSync(join(codexHome, "config.toml"), codexConfig(fake.baseUrl));
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: root,
      CODEX_HOME: codexHome,
      FAKE_OPENAI_KEY: "sk-fake",
      PODWATCH_URL: s.url,
      PODWATCH_TOKEN: token,
      PODWATCH_SPOOL_DIR: join(root, "spool"),
    };
    const install = await room.run(join(bin, "podwatch"), ["hooks", "install", "--agent", "codex"], cwd, env);
    expect(install.code, install.stderr).toBe(0);
    // Hooks not yet trusted are skipped silently: a person trusts them in `codex` (/hooks); a test bypasses that.
    const codex = room.run(
      CODEX,
      [
        "exec",
        "--skip-git-repo-check",
        "--json",
        "-s",
        "danger-full-access",
        "--dangerously-bypass-hook-trust",
        MARK,
      ],
      cwd,
      env,
    );
    expect(await steerWhileHeld(s, podId, codex)).toBe(2);
    const done = await codex;
    expect(done.code, done.stderr.slice(-2000)).toBe(0);

    // The message: in the request right after the first held call ran, not before it.
    const ours = fake.requests.filter((input) => JSON.stringify(input).includes(MARK));
    const heard = ours.map((input) => [
      codexOutputs(input).length,
      JSON.stringify(input).includes(STEER_MESSAGE),
    ]);
    expect(heard).toContainEqual([0, false]);
    expect(heard).toContainEqual([1, true]);
    // The interrupt: both held calls ran; each call after them was denied with the person's words and never ran.
    expect(existsSync(join(cwd, "hold-1.txt"))).toBe(true);
    expect(existsSync(join(cwd, "hold-2.txt"))).toBe(true);
    expect(existsSync(join(cwd, "after-interrupt.txt"))).toBe(false);
    expect(existsSync(join(cwd, "after-interrupt-2.txt"))).toBe(false);
    const outputs = codexOutputs(ours.at(-1)!);
    expect(outputs).toHaveLength(4);
    for (const blocked of outputs.slice(2)) {
      expect(blocked).toContain("Command blocked by PreToolUse hook");
      expect(blocked).toContain(`Pia interrupted this turn from podwatch: ${STEER_STOP}`);
    }

    // Delivered when the turn ended; the calls it denied are on the tape as the person's.
    expect(await deliveries(s, podId)).toEqual([
      ["codex", "steer-1", "PostToolUse"],
      ["codex", "steer-2", "Stop"],
    ]);
    const denied = (await tapeOf(s, podId)).filter(
      (e) => e.type === "tool.call" && e.body.gate?.decision === "deny",
    );
    expect(denied.map((e) => [e.body.input, e.body.phase, e.body.gate.decision, e.body.gate.by])).toEqual([
      [STEER_STEPS[2], "started", "deny", "person"],
      [AND_THEN, "started", "deny", "person"],
    ]);
  });
});
