// The real Gemini CLI (the npm package, a dev dependency), offline against a scripted fake of the
// Gemini API, with podwatch's hooks installed by `podwatch hooks install --agent gemini`. A person
// steers the running session: their message reaches the model in the very next request (Gemini
// appends the AfterTool hook's additionalContext to the tool's result), and their interrupt stops
// the agent loop at the next hook (`continue: false`), so the step the model planned after it
// never runs and the model is not asked again.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { installedPodwatch } from "../testing/installed-podwatch";
import { startFakeGeminiApi, type FakeGeminiApi } from "../testing/fake-gemini-api";
import { cliPath, cliRoom, GEMINI, GEMINI_SETTINGS, podWithApprover } from "../testing/real-cli";
import {
  deliveries,
  holdingPolicy,
  STEER_MESSAGE,
  STEER_STEPS,
  STEER_STOP,
  steerWhileHeld,
} from "../testing/steer-real-cli";

const shell = (command: string) => ({
  call: { name: "run_shell_command", args: { command, description: command } },
});
/** How many tool results a request to the model carries back. */
const results = (body: Record<string, unknown>) =>
  JSON.stringify(body).split('"functionResponse"').length - 1;

describe.each(testProviders().slice(0, 1))("steering the real Gemini CLI on %s", (provider) => {
  let s: TestServer;
  let fake: FakeGeminiApi;
  let bin: string;
  const room = cliRoom();

  beforeAll(async () => {
    s = await startTestServer(provider);
    fake = await startFakeGeminiApi([...STEER_STEPS.map(shell), { text: "All done." }]);
    bin = await installedPodwatch(s.url);
  });
  afterAll(async () => {
    room.close();
    await fake?.close();
    await s?.stop();
  });

  it("a message reaches the model at the next hook; an interrupt stops the loop before the next step", async () => {
    const { podId, token } = await podWithApprover(
      s,
      "Steer Gemini",
      "gem",
      holdingPolicy("run_shell_command"),
    );
    const home = room.folder("podwatch-steer-gemini-");
    const cwd = join(home, "work");
    mkdirSync(join(home, ".gemini"), { recursive: true });
    mkdirSync(cwd);
    writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(GEMINI_SETTINGS));
    const env = {
      PATH: cliPath(bin),
      HOME: home,
      GEMINI_CLI_HOME: home,
      PODWATCH_URL: s.url,
      PODWATCH_TOKEN: token,
      PODWATCH_SPOOL_DIR: join(home, "spool"),
    };
    const install = await room.run(
      join(bin, "podwatch"),
      ["hooks", "install", "--agent", "gemini"],
      cwd,
      env,
    );
    expect(install.code, install.stderr).toBe(0);
    const gemini = room.run(
      GEMINI,
      ["-p", "make the files", "--approval-mode", "yolo", "--skip-trust", "-o", "stream-json"],
      cwd,
      { ...env, GEMINI_API_KEY: "fake-gemini-key", GOOGLE_GEMINI_BASE_URL: fake.url },
    );
    expect(await steerWhileHeld(s, podId, gemini)).toBe(2);
    const done = await gemini;
    expect(done.code, done.stderr.slice(-2000)).toBe(0);

    // The message: in the request right after the first held call ran (beside its result), not before it.
    const ours = fake.requests.filter((r) => r.path.includes(":streamGenerateContent"));
    const heard = ours.map((r) => [results(r.body), JSON.stringify(r.body).includes(STEER_MESSAGE)]);
    expect(heard).toContainEqual([0, false]);
    expect(heard).toContainEqual([1, true]);
    // The interrupt: both held calls ran, the step after them never did, nor was the model asked again.
    expect(existsSync(join(cwd, "hold-1.txt"))).toBe(true);
    expect(existsSync(join(cwd, "hold-2.txt"))).toBe(true);
    expect(existsSync(join(cwd, "after-interrupt.txt"))).toBe(false);
    expect(ours.some((r) => results(r.body) >= 2)).toBe(false);
    // Gemini says why it stopped: the hook's reason, the person's words.
    expect(done.stdout).toContain(
      `Agent execution stopped by hook: Pia interrupted this turn from podwatch: ${STEER_STOP}`,
    );

    expect(await deliveries(s, podId)).toEqual([
      ["gem", "steer-1", "PostToolUse"],
      ["gem", "steer-2", "PostToolUse"],
    ]);
  });
});
