// A graceful restart never runs a held call unapproved: on SIGTERM, calls held for a person are
// answered at once by the pod's unreachable rule — over the http hook and through `podwatch hook`
// — and the tape says what each agent was told (the request settled by podwatch, the call's gate
// by the rule), so no deadline or person answers it differently later. A real server process and
// the real bin; SQLite and, with TEST_DATABASE_URL, PostgreSQL.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServer, SPAWN_ADMIN_TOKEN } from "../testing/spawn-server";
import { agentPod, api, startServerOn } from "../testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";
import { eventually } from "../testing/eventually";
import { runHookProcess } from "../../agent/hooks/testing/run-hook-process";
import { readHookFixture } from "./fixtures";

type Ev = { type: string; actor: string; body: Record<string, any> };
const admin = { token: SPAWN_ADMIN_TOKEN };
const RULES = [{ id: "push", tool: "Bash", input: "git push*", action: "ask" }];

describe.each(testProviders())("a drain answers held calls at once, on %s", (provider) => {
  let db: TestDatabase;
  beforeAll(async () => void (db = await createTestDatabase(provider)));
  afterAll(() => db?.drop());

  it("SIGTERM answers every held call by its pod's rule (closed: deny saying podwatch is restarting; open: no opinion), and the tape agrees", async () => {
    // A drain that would wait 30 s for held calls: the answers must come long before it gives up.
    const server = await spawnServer(
      { DATABASE_URL: db.url, PODWATCH_DRAIN_MS: "30000" },
      { name: "the draining server" },
    );
    // The spawned server's admin token, and then the in-process one's (the test server's default).
    const events = async (url: string, podId: string): Promise<Ev[]> =>
      (
        await api(
          url,
          "GET",
          `/api/v1/pods/${podId}/events?after=0&limit=1000`,
          undefined,
          url === server.url ? admin : undefined,
        )
      ).body.events;
    const ofType = async (url: string, podId: string, type: string) =>
      (await events(url, podId)).filter((e) => e.type === type);
    const pod = async (name: string, unreachable: "open" | "closed") => {
      const { podId, tokens } = await agentPod(server.url, name, { claude: "implementer" }, admin);
      expect(
        (
          await api(
            server.url,
            "POST",
            `/api/v1/pods/${podId}/events`,
            { type: "agent.policy.set", actor: "ops-admin", body: { rules: RULES, unreachable } },
            admin,
          )
        ).status,
      ).toBe(201);
      return { podId, token: tokens["claude"]! };
    };
    const closed = await pod("drain-closed", "closed");
    const open = await pod("drain-open", "open");
    const push = (toolUseId: string) => ({
      ...readHookFixture("pre-tool-use-git-push"),
      tool_use_id: toolUseId,
    });
    const http = (token: string, body: unknown) =>
      fetch(`${server.url}/api/v1/hooks/claude-code?wait=120`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const spool = join(mkdtempSync(join(tmpdir(), "pw-drain-")), "spool");
    const command = runHookProcess(
      push("toolu_cmd"),
      { PODWATCH_URL: server.url, PODWATCH_TOKEN: closed.token, PODWATCH_SPOOL_DIR: spool },
      ["--timeout", "120"],
    );
    const heldClosed = http(closed.token, push("toolu_http"));
    const heldOpen = http(open.token, push("toolu_open"));
    await eventually(
      () => ofType(server.url, closed.podId, "tool.approval.requested"),
      (l) => l.length === 2,
      "both calls of the closed pod to be held",
    );
    await eventually(
      () => ofType(server.url, open.podId, "tool.approval.requested"),
      (l) => l.length === 1,
      "the open pod's call to be held",
    );

    const exited = server.stop("SIGTERM");
    const [h, o, c] = await Promise.all([heldClosed, heldOpen, command]);
    expect(h).toEqual({
      status: 200,
      body: {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: expect.stringContaining("podwatch is restarting"),
        },
      },
    });
    expect(o).toEqual({ status: 200, body: {} });
    expect([c.code, c.json]).toEqual([
      0,
      {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: expect.stringContaining("podwatch is restarting"),
        },
      },
    ]);
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain("drained and closed");

    // The tape, read back: each request settled by podwatch with what its agent was told, each call's gate by the rule.
    const after = await startServerOn(db);
    try {
      for (const [p, toolUseIds, decision] of [
        [closed, ["toolu_cmd", "toolu_http"], "deny"],
        [open, ["toolu_open"], "allow"],
      ] as const) {
        const asked = await ofType(after.url, p.podId, "tool.approval.requested");
        const answered = await ofType(after.url, p.podId, "tool.approval.answered");
        expect(answered.map((a) => [a.actor, a.body.decision])).toEqual(
          asked.map(() => ["podwatch", decision]),
        );
        expect(new Set(answered.map((a) => a.body.requestId))).toEqual(
          new Set(asked.map((a) => a.body.requestId)),
        );
        const calls = (await ofType(after.url, p.podId, "tool.call")).filter((e) => e.body.gate);
        expect(calls.map((e) => e.body.toolUseId).sort()).toEqual([...toolUseIds]);
        for (const call of calls)
          expect(call.body.gate).toMatchObject({
            decision,
            by: "unreachable",
            ruleId: "push",
            reason: expect.stringContaining("podwatch is restarting"),
          });
        const state = (await after.app.store.readState(p.podId))!;
        expect(Object.keys(state.inbox).filter((k) => k.startsWith("tool:"))).toEqual([]); // nothing left for a deadline or a person to answer
      }
    } finally {
      await after.close();
    }
  }, 120_000);
});
