// Bash rules at both doors a Claude Code agent uses — the HTTP hook and `podwatch hook` — on a real
// server and database: an allow rule admits only the programs it names run plainly (a variable,
// a wrapper, another path or a loading option is not waved on), and deny and ask rules see
// through wrappers whose options take values.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readHookFixture } from "../../server/hooks/fixtures";
import { agentPod, api, startTestServer, type TestServer } from "../../server/testing/test-server";
import { testProviders } from "../../server/testing/test-databases";
import { eventually } from "../../server/testing/eventually";
import { runHookProcess } from "../hooks/testing/run-hook-process";

type Ev = { type: string; body: Record<string, any> };
const RULES = {
  rules: [
    { id: "safe", tool: "Bash", input: "git status|npm test", action: "allow" },
    { id: "no-rm", tool: "Bash", input: "rm -rf*", action: "deny" },
    { id: "push", tool: "Bash", input: "git push*", action: "ask" },
  ],
  ask: { minutes: 5, then: "deny" },
};
/** Allowed by the rule before it read commands with a parser; each runs other code than `git status` or `npm test`. */
const NOT_PLAIN = [
  "env -S'touch\\_/tmp/p' git status",
  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch$IFS/tmp/p' git status",
  "NODE_OPTIONS=--import=data:text/javascript,0 npm test",
  "PATH=/tmp/evil:$PATH git status",
  "/tmp/evil/git status",
  "./git status",
];
/** Not denied by `rm -rf*` before: the wrapper's option value was read as the program. */
const WRAPPED_RM = [
  "sudo -u root rm -rf /",
  "nice -n 5 rm -rf /",
  "timeout -k 1 5 rm -rf /",
  "env -u HOME rm -rf /",
  "xargs -n 1 rm -rf",
];

describe.each(testProviders())("Bash rules at the HTTP hook and podwatch hook, on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => void (s = await startTestServer(provider, { PODWATCH_DEADLINE_MIN_MS: "100" })));
  afterAll(() => s?.stop());

  const pod = async (name: string) => {
    const { podId, tokens } = await agentPod(s.url, name, { claude: "implementer" });
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "agent.policy.set",
          actor: "ops-admin",
          body: RULES,
        })
      ).status,
    ).toBe(201);
    const env = {
      PODWATCH_URL: s.url,
      PODWATCH_TOKEN: tokens.claude!,
      PODWATCH_SPOOL_DIR: join(mkdtempSync(join(tmpdir(), "pw-bash-rules-")), "spool"),
    };
    return { podId, token: tokens.claude!, env };
  };
  const call = (id: string, command: string) => ({
    ...readHookFixture("pre-tool-use-bash"),
    tool_use_id: id,
    tool_input: { command },
  });
  const overHttp = async (token: string, body: unknown) => {
    const res = await fetch(`${s.url}/api/v1/hooks/claude-code?wait=60`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  };
  const overCommand = async (env: Record<string, string>, body: unknown) => {
    const run = await runHookProcess(body, env);
    return { status: run.code, json: run.json as any };
  };
  const decision = (r: { json: any }) => r.json?.hookSpecificOutput?.permissionDecision ?? "none";
  const requests = async (podId: string) =>
    ((await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events as Ev[]).filter(
      (e) => e.type === "tool.approval.requested",
    );

  for (const [door, through] of [
    ["HTTP hook", "http"],
    ["podwatch hook", "command"],
  ] as const) {
    it(`${door}: an allow rule admits git status and npm test run plainly, nothing that runs other code`, async () => {
      const { token, env } = await pod(`allow-${through}`);
      const send = (body: unknown) => (through === "http" ? overHttp(token, body) : overCommand(env, body));
      for (const command of ["git status", "npm test"])
        expect(decision(await send(call(`toolu_ok_${command.length}`, command))), command).toBe("allow");
      for (const [i, command] of NOT_PLAIN.entries()) {
        const r = await send(call(`toolu_np_${i}`, command));
        // Claude Code's own permission flow decides; core.fsmonitor's value is read as a command whose program
        // (`touch$IFS…`) cannot be known, so every deny rule matches it.
        const expected = command.includes("core.fsmonitor") ? "deny" : "none";
        expect([r.status, decision(r)], command).toEqual([through === "http" ? 200 : 0, expected]);
      }
    }, 60_000);

    it(`${door}: deny and ask rules see through wrappers with option values`, async () => {
      const { podId, token, env } = await pod(`wrapped-${through}`);
      const send = (body: unknown) => (through === "http" ? overHttp(token, body) : overCommand(env, body));
      for (const [i, command] of WRAPPED_RM.entries()) {
        const r = await send(call(`toolu_rm_${i}`, command));
        expect([decision(r), r.json.hookSpecificOutput.permissionDecisionReason], command).toEqual([
          "deny",
          expect.stringContaining('rule "no-rm"'),
        ]);
      }
      // The ask rule holds `sudo -u root git push` for a person; their deny reaches the agent.
      const held = send(call("toolu_push", "sudo -u root git push origin main"));
      const [asked] = await eventually(
        () => requests(podId),
        (l) => l.length > 0,
        "the approval request",
        30_000,
      );
      expect(asked!.body.input).toContain("sudo -u root git push origin main");
      const answer = {
        type: "tool.approval.answered",
        actor: "ops-admin",
        body: { requestId: asked!.body.requestId, decision: "deny", reason: "not as root" },
      };
      expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, answer)).status).toBe(201);
      expect(decision(await held)).toBe("deny");
    }, 60_000);
  }
});
