// An escalation whose server dies at the worst moment: stored, then SIGKILLed before it answers
// (the test knob crashAfterAppendOf, server/test-knobs.ts). The CLI, the SDK and `podwatch mcp`
// send it again under its own ids to the server started again on the same data, wait on it, and
// get the answer a person gives afterwards through the inbox's own operation; `podwatch wait` and
// MCP's wait_for_answer find it by its id, and a new run asking it again under its id waits on it.
import { createServer } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveIdentity } from "../../server/access/resolve-identity";
import { inboxOperations } from "../../server/pods/inbox-operations";
import type { RunningServer } from "../../server/start-server";
import { PODWATCH_BIN, runCli, startCli, until } from "../../server/testing/run-cli";
import { spawnServer, type SpawnedServer } from "../../server/testing/spawn-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../../server/testing/test-databases";
import { agentPod, api, startServerOn } from "../../server/testing/test-server";
import { performOperation } from "../../server/web/perform-operation";
import { PodAgent } from "./pod-agent";

const AUTH_SECRET = "x".repeat(32); // startServerOn's: the spawned server must read the same sessions
type ToolReply = { content: { type: string; text: string }[]; isError?: boolean };
type StoredEscalation = { escalationId: string; question: string; seq: number; answer: unknown };

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe.each(testProviders())("an escalation whose server died before answering (%s)", (provider) => {
  let db: TestDatabase;
  let port: number;
  let url: string;
  let server: RunningServer | null = null;
  let podId: string;
  let env: Record<string, string>;
  let approverCookie: string;

  beforeAll(async () => {
    db = await createTestDatabase(provider);
    port = await freePort();
    server = await startServerOn(db, { PORT: String(port), PODWATCH_AUTH_SECRET: AUTH_SECRET });
    url = server.url;
    const pod = await agentPod(url, "crash", { impl: "implementer" });
    podId = pod.podId;
    env = { PODWATCH_URL: url, PODWATCH_TOKEN: pod.tokens.impl! };
    const email = "ann@example.com";
    const password = "a long enough password";
    await api(url, "POST", "/api/v1/users", { email, name: "Ann", password });
    await api(url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: email,
      kind: "human",
      displayName: "Ann",
      roles: ["approver"],
    });
    const signIn = await fetch(`${url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: url },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status).toBe(200);
    approverCookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  /** The server, as a child process that SIGKILLs itself once an escalation is stored. */
  async function crashingServer(): Promise<SpawnedServer> {
    await server?.close();
    server = null;
    return spawnServer(
      {
        DATABASE_URL: db.url,
        PODWATCH_AUTH_SECRET: AUTH_SECRET,
        PODWATCH_CRASH_AFTER_APPEND_OF: "escalation",
      },
      { port, name: "the crashing server" },
    );
  }
  /** Once it died by the knob (not by anything a client did), the server again, on the same data and port. */
  async function restartAfter(crashed: SpawnedServer) {
    expect(await crashed.exited).toEqual({ code: null, signal: "SIGKILL" });
    server = await startServerOn(db, { PORT: String(port), PODWATCH_AUTH_SECRET: AUTH_SECRET });
  }
  const escalations = async (): Promise<StoredEscalation[]> =>
    (await api(url, "GET", `/api/v1/pods/${podId}/state`)).body.escalations;
  const asked = async (question: string) => (await escalations()).filter((e) => e.question === question);
  /** Ann answers in the inbox: the operation its card calls, as her session. */
  async function answer(escalationId: string, text: string) {
    const identity = await resolveIdentity(server!.app.access, new Headers({ cookie: approverCookie }));
    expect(identity).toMatchObject({ kind: "user" });
    if (identity === "invalid") return;
    const r = await performOperation(server!.app, identity, inboxOperations.answerEscalation, {
      podId,
      escalationId,
      answer: text,
    });
    expect(r).toMatchObject({ ok: true });
  }

  it("escalate --wait sends it again, waits on it and prints the answer; it is stored once; podwatch wait rides out the restart", async () => {
    const crashed = await crashingServer();
    const question = "Keep the v1 endpoint?";
    const cli = startCli(["escalate", question, "--option", "Yes", "--option", "No", "--wait"], env);
    const retrying = /escalation (esc-[0-9a-f]+): cannot reach podwatch/;
    await until(() => retrying.test(cli.stderr()), "the first retry", 60_000);
    // While the server is down, another process waits on it by the id the retry names.
    const waiting = startCli(["wait", retrying.exec(cli.stderr())![1]!], env);
    await until(() => waiting.stderr().includes("cannot reach podwatch"), "the wait's retry", 30_000);
    await restartAfter(crashed);
    await until(() => cli.stderr().includes("waiting for a human"), "the wait after the retry", 60_000);
    const [esc, ...more] = await asked(question);
    expect(more).toEqual([]);
    expect(cli.stderr()).toContain(`escalation ${esc!.escalationId}: cannot reach podwatch`);
    await until(
      () => waiting.stderr().includes("waiting for a human"),
      "podwatch wait after the restart",
      60_000,
    );
    await answer(esc!.escalationId, "Yes");
    expect(await cli.done).toMatchObject({ code: 0, stdout: "Yes\n" });
    expect(await waiting.done).toMatchObject({ code: 0, stdout: "Yes\n" });
  }, 120_000);

  it("asked again with its id by a new run (the first one died), it is the same escalation; podwatch wait gets the answer", async () => {
    const question = "Drop the legacy table?";
    const ask = ["escalate", question, "--id", "esc-rerun", "--option", "Yes", "--option", "No", "--wait"];
    const first = startCli(ask, env);
    await until(() => first.stderr().includes("waiting for a human"), "the first wait", 60_000);
    first.child.kill("SIGKILL"); // the agent's process dies; it is started again with the same command
    await first.done;
    const again = startCli(ask, env);
    const waiting = startCli(["wait", "esc-rerun"], env);
    await until(
      () =>
        again.stderr().includes("waiting for a human") && waiting.stderr().includes("waiting for a human"),
      "both waits",
      60_000,
    );
    expect(await asked(question)).toHaveLength(1);
    // The same id for another question is still a conflict: only the very same escalation is taken as sent.
    expect(await runCli(["escalate", "Drop it today?", "--id", "esc-rerun"], env)).toMatchObject({
      code: 6,
      stderr: expect.stringContaining("already exists"),
    });
    await answer("esc-rerun", "No");
    expect(await again.done).toMatchObject({ code: 0, stdout: "No\n" });
    expect(await waiting.done).toMatchObject({ code: 0, stdout: "No\n" });
    const [esc] = await asked(question);
    const answered = await runCli(["wait", "esc-rerun", "--json"], env);
    expect(JSON.parse(answered.stdout)).toMatchObject({
      escalationId: "esc-rerun",
      seq: esc!.seq,
      answer: "No",
      by: "ann@example.com",
      byDeadline: false,
    });
    // Answered already: at once (above). Unknown: 5. Nobody answers within --timeout: 8, as escalate --wait.
    expect(await runCli(["wait", "esc-nobody-asked"], env)).toMatchObject({
      code: 5,
      stderr: expect.stringContaining("does not exist"),
    });
    expect((await runCli(["escalate", "Later?", "--id", "esc-later"], env)).code).toBe(0);
    expect(await runCli(["wait", "esc-later", "--timeout", "1"], env)).toMatchObject({
      code: 8,
      stdout: "no answer to esc-later within 1s\n",
    });
  }, 120_000);

  it("the SDK's escalate sends it again and waitForEscalation finds it by id", async () => {
    const agent = PodAgent.fromEnv(env as NodeJS.ProcessEnv);
    const crashed = await crashingServer();
    const question = "Rotate the signing key now?";
    const sent = agent.escalate({ question, kind: "risk_tolerance", options: ["Yes", "No"] });
    await restartAfter(crashed);
    const esc = await sent;
    expect(await asked(question)).toMatchObject([{ escalationId: esc.escalationId, seq: esc.seq }]);
    const waiting = agent.waitForAnswer(esc, { timeoutSeconds: 60 });
    await answer(esc.escalationId, "Yes");
    expect(await waiting).toMatchObject({ answer: "Yes", by: "ann@example.com" });
    expect(await agent.waitForEscalation(esc.escalationId)).toMatchObject({ answer: "Yes" });
  }, 120_000);

  it("podwatch mcp's escalate sends it again and answers; wait_for_answer finds it by id", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [PODWATCH_BIN, "mcp"],
      env: { PATH: process.env.PATH!, ...env },
      stderr: "pipe",
    });
    const client = new Client({ name: "crash-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const r = (await client.callTool({ name, arguments: args })) as ToolReply;
        expect(r.isError, r.content[0]?.text).toBeFalsy();
        return JSON.parse(r.content[0]!.text);
      };
      const crashed = await crashingServer();
      const question = "Merge the migration branch?";
      const replied = call("escalate", { question, options: ["Yes", "No"], wait: true, timeout_seconds: 50 });
      await restartAfter(crashed);
      await expect.poll(async () => (await asked(question)).length, { timeout: 30_000 }).toBe(1);
      const [esc] = await asked(question);
      await answer(esc!.escalationId, "No");
      expect(await replied).toMatchObject({ escalation_id: esc!.escalationId, answered: true, answer: "No" });
      expect(await call("wait_for_answer", { escalation_id: esc!.escalationId })).toMatchObject({
        answered: true,
        answer: "No",
        by: "ann@example.com",
      });
      // Asked again under its id (a client that never saw the reply): the same escalation, answered.
      const again = { question, options: ["Yes", "No"], escalation_id: esc!.escalationId, wait: true };
      expect(await call("escalate", again)).toMatchObject({ answered: true, answer: "No" });
      expect(await asked(question)).toHaveLength(1);
    } finally {
      await client.close();
    }
  }, 120_000);
});
