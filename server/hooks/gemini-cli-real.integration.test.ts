// The real Gemini CLI (the npm package, a dev dependency) against a scripted fake of the Gemini
// API on 127.0.0.1, its hooks installed by `podwatch hooks install --agent gemini` from the
// podwatch the server serves. One headless session: a prompt, a shell command a person allows in
// the inbox (it runs), one they deny (it does not: no file, and the model is told why), the
// turn's answer, its token usage (priced by the operator's price file) and the session's end, all
// on the tape as the gemini-cli agent's.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { installedPodwatch } from "../testing/installed-podwatch";
import { startFakeGeminiApi, type FakeGeminiApi } from "../testing/fake-gemini-api";
import { eventually } from "../testing/eventually";
import { performOperation } from "../web/perform-operation";
import { inboxOperations } from "../pods/inbox-operations";
import { cliPath, cliRoom, GEMINI, GEMINI_SETTINGS, type Ev, type Person } from "../testing/real-cli";
const API_KEY = "fake-gemini-key-never-on-the-tape";
const PROMPT = "write allowed.txt and denied.txt";
// The operator's prices for the fake's model (podwatch lists no Gemini prices), in dollars per million tokens.
const PRICES = { input: 2, output: 10, cacheWrite: 4, cacheRead: 0.5 };
const shell = (command: string) => ({
  call: { name: "run_shell_command", args: { command, description: command } },
});

// One provider: the CLI's start-up dominates, and the door's storage is walked on both elsewhere.
const provider = testProviders().at(-1)!;

describe(`the real Gemini CLI, its hooks installed by podwatch, on ${provider}`, () => {
  let s: TestServer;
  let fake: FakeGeminiApi;
  let home: string;
  let podId: string;
  let token: string;
  const room = cliRoom();
  const pia: Person = {
    kind: "user",
    userId: "u-pia",
    email: "pia-gemini@example.com",
    name: "Pia",
    isAdmin: false,
  };

  const events = async (): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events;
  const approvalFor = async (file: string): Promise<Ev> =>
    (await eventually<Ev | undefined>(
      async () =>
        ((await events()) as Ev[]).find(
          (e) => e.type === "tool.approval.requested" && e.body.input.includes(file),
        ),
      (e) => e !== undefined,
      `the inbox to ask about ${file}`,
      150_000,
      250,
    ))!;
  const answer = (requestId: string, decision: "allow" | "deny", reason: string) =>
    performOperation(s.app, pia, inboxOperations.answerToolApproval, {
      podId,
      answer: { requestId, decision, reason },
    });

  beforeAll(async () => {
    s = await startTestServer(provider);
    const pod = await agentPod(s.url, "Gemini pod", { gem: "implementer" });
    podId = pod.podId;
    token = pod.tokens.gem!;
    expect(
      (
        await api(s.url, "POST", "/api/v1/users", {
          email: pia.email,
          name: pia.name,
          password: "a long enough password",
        })
      ).status,
    ).toBe(201);
    const member = { memberId: pia.email, kind: "human", displayName: pia.name, roles: ["approver"] };
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/members`, member)).status).toBe(201);
    const policy = {
      rules: [{ id: "files", tool: "run_shell_command", input: "*.txt*", action: "ask" }],
      ask: { minutes: 10, then: "deny" },
      unreachable: "closed",
      recordPrompts: true,
    };
    const set = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "agent.policy.set",
      actor: "ops-admin",
      body: policy,
    });
    expect(set.status).toBe(201);
    fake = await startFakeGeminiApi([
      shell("echo ok > allowed.txt"),
      shell("echo no > denied.txt"),
      {
        text: "Wrote allowed.txt; denied.txt was refused.",
        usage: { promptTokenCount: 1200, candidatesTokenCount: 30 },
      },
    ]);
    home = room.folder("podwatch-gemini-");
  });
  afterAll(async () => {
    room.close();
    await fake?.close();
    await s?.stop();
  });

  it(
    "records the session, its prompt, a tool call a person allows (it runs) and one they deny (it does not)",
    { timeout: 240_000 },
    async () => {
      const work = join(home, "work");
      mkdirSync(join(home, ".gemini"), { recursive: true });
      mkdirSync(work);
      writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(GEMINI_SETTINGS));
      const bin = await installedPodwatch(s.url);
      const env = {
        PATH: cliPath(bin),
        HOME: home,
        GEMINI_CLI_HOME: home,
        PODWATCH_URL: s.url,
        PODWATCH_TOKEN: token,
        PODWATCH_SPOOL_DIR: join(home, "spool"),
        PODWATCH_MODEL_PRICES: join(home, "prices.json"),
      };
      writeFileSync(env.PODWATCH_MODEL_PRICES, JSON.stringify({ "gemini-2.5-flash": PRICES }));
      const install = await room.run(
        join(bin, "podwatch"),
        ["hooks", "install", "--agent", "gemini"],
        work,
        env,
      );
      expect(install.code, install.stderr).toBe(0);
      const settings = JSON.parse(readFileSync(join(home, ".gemini", "settings.json"), "utf8"));
      expect(settings.model.name).toBe("gemini-2.5-flash");
      expect(settings.hooks.BeforeTool[0].hooks[0].command).toContain("podwatch hook --agent gemini");

      const gemini = room.run(
        GEMINI,
        ["-p", PROMPT, "--approval-mode", "yolo", "--skip-trust", "-o", "stream-json"],
        work,
        { ...env, GEMINI_API_KEY: API_KEY, GOOGLE_GEMINI_BASE_URL: fake.url },
      );
      const allowed = await approvalFor("allowed.txt");
      expect(existsSync(join(work, "allowed.txt"))).toBe(false); // held until a person answers
      expect((await answer(allowed.body.requestId, "allow", "fine")).ok).toBe(true);
      const denied = await approvalFor("denied.txt");
      expect((await answer(denied.body.requestId, "deny", "not that file")).ok).toBe(true);
      const done = await gemini;
      expect(done.code, done.stderr.slice(-2000)).toBe(0);

      expect(existsSync(join(work, "allowed.txt"))).toBe(true);
      expect(existsSync(join(work, "denied.txt"))).toBe(false);
      // The model was told why: Gemini's block, with the person's reason.
      const sent = JSON.stringify(fake.requests.at(-1)?.body ?? {});
      expect(sent).toContain("Tool execution blocked");
      expect(sent).toContain("not that file");

      const tape = await events();
      const ours = tape.filter((e) => e.actor === "gem");
      const session = ours.find((e) => e.type === "session.started")!;
      expect(session.body.via).toBe("gemini-cli");
      const sessionId = session.meta?.sessionId;
      expect(sessionId).toBeTruthy();
      expect(ours.every((e) => e.meta?.sessionId === sessionId)).toBe(true);
      expect(ours.find((e) => e.type === "prompt.submitted")?.body.text).toBe(PROMPT);
      const calls = ours.filter((e) => e.type === "tool.call");
      const ran = calls.filter((e) => e.body.input.includes("allowed.txt"));
      expect(ran.map((e) => e.body.phase)).toEqual(["started", "succeeded"]);
      expect(ran[0]!.body.toolUseId).toBe(ran[1]!.body.toolUseId);
      expect(ran[0]!.body.tool).toBe("run_shell_command");
      const refused = calls.filter((e) => e.body.input.includes("denied.txt"));
      expect(refused.map((e) => e.body.phase)).toEqual(["started"]);
      const answers = tape.filter((e) => e.type === "tool.approval.answered");
      expect(answers.map((e) => [e.actor, e.body.decision])).toEqual([
        [pia.email, "allow"],
        [pia.email, "deny"],
      ]);
      expect(ours.find((e) => e.type === "note")?.body.text).toBe(
        "Wrote allowed.txt; denied.txt was refused.",
      );
      expect(ours.filter((e) => e.type === "session.ended")).toHaveLength(1);
      // Usage, read from Gemini's transcript at the turn's end: three answers of the fake, each counted once.
      const usage = ours.filter((e) => e.type === "usage.reported");
      expect(usage.every((e) => e.body.model === "gemini-2.5-flash" && e.body.source === "transcript")).toBe(
        true,
      );
      const sum = (k: string) => usage.reduce((n, e) => n + (e.body[k] as number), 0);
      expect([sum("inputTokens") + sum("cacheReadTokens"), sum("outputTokens")]).toEqual([1400, 50]);
      // Priced by the operator's file the hooks inherited from Gemini's environment: each report, and the session.
      const dollars = (t: Record<string, number>) =>
        (t.inputTokens! * PRICES.input +
          t.outputTokens! * PRICES.output +
          t.cacheWriteTokens! * PRICES.cacheWrite +
          t.cacheReadTokens! * PRICES.cacheRead) /
        1e6;
      for (const e of usage) expect(e.body.costUsd).toBeCloseTo(dollars(e.body), 6);
      const tokens = Object.fromEntries(
        ["inputTokens", "outputTokens", "cacheWriteTokens", "cacheReadTokens"].map((k) => [k, sum(k)]),
      );
      expect(sum("costUsd")).toBeGreaterThan(0);
      expect(sum("costUsd")).toBeCloseTo(dollars(tokens), 6);
      // A hook's environment holds the model's key: it never reaches the tape.
      expect(JSON.stringify(tape)).not.toContain(API_KEY);
    },
  );
});
