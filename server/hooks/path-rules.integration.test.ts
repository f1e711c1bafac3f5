// Path rules cover every tool that takes a path or a glob, through both of Claude Code's doors:
// the HTTP hook (POST /api/v1/hooks/claude-code) and the command hook (the real `podwatch hook`
// bin). `deny /etc/*` denies Grep and LS of `/etc`, and Glob `/etc/*` without a path; a search in
// the project is still allowed. Real server, real database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { readHookFixture } from "./fixtures";
import { runHookProcess } from "../../agent/hooks/testing/run-hook-process";

type Decision = { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };

const DENIED: [string, Record<string, unknown>][] = [
  ["Grep", { pattern: "root", path: "/etc" }],
  ["LS", { path: "/etc" }],
  ["Glob", { pattern: "/etc/*" }],
  ["Glob", { pattern: "**/*.conf", path: "/etc" }],
  ["Glob", { pattern: "../../../etc/ssh/*" }],
  ["Grep", { pattern: "BEGIN OPENSSH PRIVATE KEY", path: "/" }],
  ["Read", { file_path: "/etc/shadow" }],
  ["NotebookEdit", { notebook_path: "/etc/x.ipynb", new_source: "" }],
];
const ALLOWED: [string, Record<string, unknown>][] = [
  ["Grep", { pattern: "needle", path: "src" }],
  ["Glob", { pattern: "src/**/*.ts" }],
  ["LS", { path: "/home/dev/shop-api" }],
];

describe.each(testProviders())("path rules through the hook doors on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer(provider);
    ({
      podId,
      tokens: { claude: token },
    } = (await agentPod(s.url, "paths", { claude: "implementer" })) as {
      podId: string;
      tokens: { claude: string };
    });
    const policy = {
      rules: [
        {
          id: "etc",
          tool: "Read|Edit|Write|MultiEdit|NotebookEdit|Grep|Glob|LS",
          input: "/etc/*",
          action: "deny",
        },
      ],
      unreachable: "closed",
    };
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "agent.policy.set",
          actor: "ops-admin",
          body: policy,
        })
      ).status,
    ).toBe(201);
  });
  afterAll(() => s?.stop());

  // The fixture's cwd is /home/dev/shop-api.
  const call = (tool: string, input: Record<string, unknown>, id: string) => ({
    ...readHookFixture("pre-tool-use-read"),
    tool_name: tool,
    tool_input: input,
    tool_use_id: id,
  });
  const viaHttp = async (payload: unknown): Promise<Decision> => {
    const res = await fetch(`${s.url}/api/v1/hooks/claude-code`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Decision;
  };
  const viaCommand = async (payload: unknown): Promise<Decision> => {
    const run = await runHookProcess(payload, { PODWATCH_URL: s.url, PODWATCH_TOKEN: token });
    expect(run.code, run.stderr).toBe(0);
    return run.json as Decision;
  };

  it.each([
    ["the HTTP hook", viaHttp],
    ["podwatch hook", viaCommand],
  ] as const)(
    "%s denies every tool that reads under /etc, and allows a search in the project",
    async (door, send) => {
      for (const [i, [tool, input]] of DENIED.entries()) {
        const out = await send(call(tool, input, `toolu_${door.replace(/\W/g, "")}_deny_${i}`));
        expect([tool, input, out.hookSpecificOutput?.permissionDecision]).toEqual([tool, input, "deny"]);
        expect(out.hookSpecificOutput?.permissionDecisionReason).toContain('"etc"');
      }
      for (const [i, [tool, input]] of ALLOWED.entries()) {
        const out = await send(call(tool, input, `toolu_${door.replace(/\W/g, "")}_allow_${i}`));
        expect([tool, input, out.hookSpecificOutput?.permissionDecision ?? "no decision"]).not.toEqual([
          tool,
          input,
          "deny",
        ]);
      }
    },
  );

  it("the tape records each denied search as denied by the rule", async () => {
    const events = (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body
      .events as {
      type: string;
      body: { tool: string; input?: string; gate?: { decision: string; by: string; ruleId?: string } };
    }[];
    const grepEtc = events.filter(
      (e) => e.type === "tool.call" && e.body.tool === "Grep" && e.body.input === "/etc",
    );
    expect(grepEtc.length).toBeGreaterThanOrEqual(2);
    for (const e of grepEtc)
      expect(e.body.gate).toMatchObject({ decision: "deny", by: "policy", ruleId: "etc" });
  });
});
