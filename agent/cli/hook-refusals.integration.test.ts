// `podwatch hook` on a gated call when podwatch answers but will not decide: a 429 is podwatch
// refusing for now — answered by the agent's unreachable rule, naming the 429 (closed: deny,
// open: no opinion), with exit 0; and a podwatch that is reached but too slow is reported as too
// slow, not as unreachable. Real bin, real server, and a real socket that accepts and never answers.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readHookFixture } from "../../server/hooks/fixtures";
import { agentPod, api, startServerOn } from "../../server/testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../../server/testing/test-databases";
import type { RunningServer } from "../../server/start-server";
import { runHookProcess } from "../hooks/testing/run-hook-process";

type Ev = { type: string; body: Record<string, any> };
const RATE_LIMIT = 40;

describe.each(testProviders())("podwatch hook when podwatch refuses or is slow, on %s", (provider) => {
  let db: TestDatabase;
  let server: RunningServer | undefined;
  beforeAll(async () => void (db = await createTestDatabase(provider)));
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  const setup = async (url: string, name: string) => {
    const { podId, tokens } = await agentPod(url, name, { claude: "implementer" });
    const spoolDir = join(mkdtempSync(join(tmpdir(), "pw-hook-refusals-")), "spool");
    const env = { PODWATCH_URL: url, PODWATCH_TOKEN: tokens.claude!, PODWATCH_SPOOL_DIR: spoolDir };
    const spooled = () =>
      (existsSync(spoolDir) ? readdirSync(spoolDir) : [])
        .filter((f) => f.endsWith(".jsonl"))
        .flatMap((f) =>
          readFileSync(join(spoolDir, f), "utf8")
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l) as Record<string, any>),
        );
    return {
      podId,
      token: tokens.claude!,
      env,
      spooled,
      hook: (p: unknown, args: string[] = []) => runHookProcess(p, env, args),
    };
  };

  it(
    "a 429 on a gated call is answered by the agent's rule with exit 0, naming it (closed: deny, open: no opinion); an observation is spooled",
    { timeout: 90_000 },
    async () => {
      server = await startServerOn(db, { PODWATCH_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });
      const { podId, token, env, hook, spooled } = await setup(server.url, "throttled");
      const rule = async (unreachable: string) =>
        expect(
          (
            await api(server!.url, "POST", `/api/v1/pods/${podId}/events`, {
              type: "agent.policy.set",
              actor: "ops-admin",
              body: { rules: [], unreachable },
            })
          ).status,
        ).toBe(201);
      await rule("closed");
      // The token's budget is per minute of the wall clock (on PostgreSQL): start early in one, so it stays spent throughout.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 30_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
      for (let i = 0; i < RATE_LIMIT; i++) await api(server.url, "GET", "/api/v1/me", undefined, { token }); // the token's minute is used up
      expect((await api(server.url, "GET", "/api/v1/me", undefined, { token })).status).toBe(429);

      const pre = await hook(readHookFixture("pre-tool-use-git-push"));
      expect([pre.code, pre.json]).toEqual([
        0,
        {
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: expect.stringContaining("429"),
          },
        },
      ]);
      const perm = await hook(readHookFixture("permission-request"));
      expect(perm.json).toEqual({
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "deny", message: expect.stringContaining("refused to check it for now") },
        },
      });
      // The HTTP door itself answers the same way: a 200 carrying the rule, never the 429.
      const res = await fetch(`${server.url}/api/v1/hooks/claude-code`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(readHookFixture("pre-tool-use-git-push")),
      });
      expect([
        res.status,
        res.headers.get("x-podwatch-unreachable"),
        ((await res.json()) as any).hookSpecificOutput.permissionDecision,
      ]).toEqual([200, "closed", "deny"]);
      expect(spooled()).toEqual([]); // a refusal is not an unreachable gate to report
      const note = await hook(readHookFixture("notification"));
      expect([note.code, note.json]).toEqual([0, {}]);
      expect(spooled().map((e) => [e.kind, e.payload?.hook_event_name])).toEqual([["hook", "Notification"]]);
      // Its spool now waits to be replayed: the replay meets the 429 first, and the rule the hook last heard (closed) answers.
      const behind = await hook(readHookFixture("pre-tool-use-git-push"));
      expect([behind.code, behind.json]).toEqual([
        0,
        {
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: expect.stringContaining("429 too many requests"),
          },
        },
      ]);
      // Under an open rule, the server's answer to the throttled call is no opinion.
      await rule("open");
      const open = await runHookProcess(readHookFixture("pre-tool-use-git-push"), {
        ...env,
        PODWATCH_SPOOL_DIR: `${env.PODWATCH_SPOOL_DIR}-fresh`,
      });
      expect([open.code, open.json]).toEqual([0, {}]);
      await server.close();
      server = undefined;
    },
  );

  it("a podwatch reached but too slow is reported as too slow, not as unreachable", async () => {
    server = await startServerOn(db, { PODWATCH_DEADLINE_MIN_MS: "100" });
    const port = Number(new URL(server.url).port);
    const { podId, hook, spooled } = await setup(server.url, "slow");
    expect(
      (
        await api(server.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "agent.policy.set",
          actor: "ops-admin",
          body: { rules: [], unreachable: "closed" },
        })
      ).status,
    ).toBe(201);
    expect((await hook(readHookFixture("session-start"))).code).toBe(0); // caches the closed rule
    await server.close();
    server = undefined;

    // The same address now accepts connections and reads, and never answers.
    const sockets = new Set<Socket>();
    const silent: Server = createServer((s) => (sockets.add(s), s.resume()));
    await new Promise<void>((resolve) => silent.listen(port, "127.0.0.1", resolve));
    try {
      const r = await hook(readHookFixture("pre-tool-use-git-push"), ["--timeout", "4"]);
      expect([r.code, r.json]).toEqual([
        0,
        {
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: expect.stringContaining("podwatch did not answer in time"),
          },
        },
      ]);
      expect(sockets.size).toBeGreaterThan(0); // it was reached
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
    const reports = spooled()
      .filter((e) => e.kind === "events")
      .flatMap((e) => e.events as Ev[]);
    expect(reports.map((e) => e.body.gate)).toEqual([
      {
        decision: "deny",
        by: "unreachable",
        reason: "podwatch did not answer in time; the agent's rule is closed",
      },
    ]);

    server = await startServerOn(db, { PORT: String(port), PODWATCH_DEADLINE_MIN_MS: "100" });
    expect((await hook(readHookFixture("notification"))).code).toBe(0); // replays the spool first
    const calls = (
      (await api(server.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events as Ev[]
    ).filter((e) => e.type === "tool.call");
    expect(calls.map((c) => c.body.gate)).toEqual([
      {
        decision: "deny",
        by: "unreachable",
        reason: "podwatch did not answer in time; the agent's rule is closed",
      },
    ]);
  }, 30_000);
});
