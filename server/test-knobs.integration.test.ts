// The test knobs reach a server only from the tests: the production configuration reads none of
// them, so an environment that names them (a deployment copying a test's variables) changes
// nothing, while the test harness hands them to startServer.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "./config";
import { startServer, type RunningServer } from "./start-server";
import { PRODUCTION_KNOBS } from "./test-knobs";
import { agentPod, api, startServerOn, TEST_ADMIN_TOKEN } from "./testing/test-server";
import { createTestDatabase, type TestDatabase } from "./testing/test-databases";
import { knobsFromEnv } from "./testing/test-knobs";

const KNOBS_AS_VARIABLES = {
  PODWATCH_WATCHDOG_MINUTE_MS: "200",
  PODWATCH_DEADLINE_MIN_MS: "100",
  PODWATCH_WEBHOOK_TIME_SCALE: "0.001",
  PODWATCH_PUSH_INSECURE_LOOPBACK: "1",
};

/** An escalation whose deadline is 5 s after it: only a shortened minimum admits it. */
async function askWithDeadlineSoon(base: string) {
  const { podId, tokens } = await agentPod(base, `knobs-${randomUUID().slice(0, 6)}`, {
    impl: "implementer",
  });
  const deadline = { at: new Date(Date.now() + 5_000).toISOString(), then: "answer", answer: "Yes" };
  const body = { escalationId: "e1", kind: "intent", question: "Ship?", options: ["Yes", "No"], deadline };
  return api(
    base,
    "POST",
    `/api/v1/pods/${podId}/events`,
    { type: "escalation", actor: "impl", body },
    { token: tokens["impl"]! },
  );
}

describe("test knobs", () => {
  let db: TestDatabase | null = null;
  let server: RunningServer | null = null;
  afterEach(async () => {
    await server?.close();
    await db?.drop();
    server = null;
    db = null;
  });

  it("the production configuration reads none of them: a server started from it runs with the production values", async () => {
    db = await createTestDatabase("sqlite");
    const env = {
      DATABASE_URL: db.url,
      PORT: "0",
      HOST: "127.0.0.1",
      PODWATCH_DEMO: "0",
      PODWATCH_WEB: "0",
      PODWATCH_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    };
    const config = readConfig({ ...env, ...KNOBS_AS_VARIABLES });
    expect(config).toEqual(readConfig(env));
    server = await startServer(config);
    expect(server.app.knobs).toEqual(PRODUCTION_KNOBS);
    const asked = await askWithDeadlineSoon(server.url);
    expect([asked.status, JSON.stringify(asked.body)]).toEqual([
      422,
      expect.stringContaining("deadline_too_soon"),
    ]);
  });

  it("the test harness takes them from a test's variables and hands them to startServer", async () => {
    db = await createTestDatabase("sqlite");
    server = await startServerOn(db, KNOBS_AS_VARIABLES);
    expect(server.app.knobs).toEqual({
      watchdogMinuteMs: 200,
      deadlineMinMs: 100,
      webhookTimeScale: 0.001,
      pushInsecureLoopback: true,
      crashAfterAppendOf: null, // a server that dies on an append runs as a child (agent/sdk/escalate-crash test)
    });
    expect((await askWithDeadlineSoon(server.url)).status).toBe(201);
  });

  it("the harness keeps them apart from the configuration and refuses a value out of bounds", () => {
    expect(knobsFromEnv({ PORT: "0", PODWATCH_DEADLINE_MIN_MS: "100" })).toEqual({
      knobs: { deadlineMinMs: 100 },
      env: { PORT: "0" },
    });
    expect(knobsFromEnv({ PODWATCH_CRASH_AFTER_APPEND_OF: "escalation" }).knobs).toEqual({
      crashAfterAppendOf: "escalation",
    });
    expect(() => knobsFromEnv({ PODWATCH_DEADLINE_MIN_MS: "5" })).toThrow(/PODWATCH_DEADLINE_MIN_MS/);
    expect(() => knobsFromEnv({ PODWATCH_WEBHOOK_TIME_SCALE: "2" })).toThrow(/PODWATCH_WEBHOOK_TIME_SCALE/);
  });
});
