// One pod policy, written in the common vocabulary (shell, write), governs a Gemini CLI hook and a
// Claude Code hook alike, through the hook use-case with the agent's kind (as another agent's door
// hands it on) and through Claude Code's HTTP door. A held Gemini call is one inbox card that names
// its agent program; a person's "always allow this" becomes a rule in Gemini's own tool name.
// Real server, real database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { readHookFixture } from "../hooks/fixtures";
import { handleClaudeCodeHook, type HookAnswer } from "../hooks/handle-claude-code-hook";
import { heldCalls } from "../http/hook-routes";
import { eventually } from "../testing/eventually";

type Ev = { type: string; body: Record<string, unknown> };
type Decision = { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } };

const POLICY = {
  rules: [
    { id: "no-rm", tool: "shell", input: "rm -rf*", action: "deny" },
    { id: "push", tool: "shell", input: "git push*", action: "ask" },
    { id: "no-etc", tool: "write|edit", input: "/etc/*", action: "deny" },
  ],
};

describe.each(testProviders())("one policy for every agent on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let token: string;
  let tokenId: string;
  beforeAll(async () => {
    s = await startTestServer(provider);
    const pod = await agentPod(s.url, "agents", { gem: "implementer" });
    podId = pod.podId;
    token = pod.tokens.gem!;
    tokenId = ((await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens as { id: string }[])[0]!
      .id;
    const set = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "agent.policy.set",
      actor: "ops-admin",
      body: POLICY,
    });
    expect(set.status).toBe(201);
  });
  afterAll(() => s?.stop());

  // The fixture's cwd is /home/dev/shop-api.
  const call = (tool: string, input: Record<string, unknown>, id: string) => ({
    ...readHookFixture("pre-tool-use-read"),
    tool_name: tool,
    tool_input: input,
    tool_use_id: id,
  });
  const gemini = (tool: string, input: Record<string, unknown>, id: string): Promise<HookAnswer> =>
    handleClaudeCodeHook(s.app, { podId, memberId: "gem", tokenId }, call(tool, input, id), {
      agent: "gemini-cli",
      waitSeconds: 60,
      replay: false,
      signal: new AbortController().signal,
      drain: s.app.drain.signal,
      held: heldCalls(s.app),
      heldKey: tokenId,
    });
  const decision = (a: HookAnswer) =>
    a === "aborted" ? a : (a.output as Decision).hookSpecificOutput?.permissionDecision;
  const state = async () => (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
  const events = async (): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events;

  it("denies Gemini's shell and file tools by the rules on shell and write, and records each gate", async () => {
    expect(decision(await gemini("run_shell_command", { command: "cd /tmp && rm -rf /" }, "g-rm"))).toBe(
      "deny",
    );
    expect(decision(await gemini("write_file", { file_path: "/etc/passwd", content: "x" }, "g-etc"))).toBe(
      "deny",
    );
    expect(
      decision(await gemini("replace", { file_path: "src/a.ts", old_string: "a" }, "g-src")),
    ).toBeUndefined();
    const gates = (await events())
      .filter((e) => e.type === "tool.call")
      .map((e) => [e.body.tool, (e.body.gate as { ruleId?: string } | undefined)?.ruleId]);
    expect(gates).toEqual(
      expect.arrayContaining([
        ["run_shell_command", "no-rm"],
        ["write_file", "no-etc"],
      ]),
    );
  });

  it("denies Claude Code's Bash by the same rule on shell, through its HTTP door", async () => {
    const res = await fetch(`${s.url}/api/v1/hooks/claude-code`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(call("Bash", { command: "sudo rm -rf /srv" }, "c-rm")),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Decision).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining('rule "no-rm"'),
    });
  });

  it("holds a Gemini call as one inbox card naming Gemini CLI; always-allow adds a rule in its own tool", async () => {
    const held = gemini(
      "run_shell_command",
      { command: "git push origin main", description: "ship" },
      "g-push",
    );
    type Card = { kind: string; context: Record<string, unknown> | null };
    const cards = await eventually(
      async () => ((await state()).inbox as Card[]).filter((i) => i.kind === "tool_approval"),
      (c) => c.length > 0,
      "the held call's inbox card",
    );
    expect(cards).toHaveLength(1);
    const card = cards[0]!;
    expect(card.context).toMatchObject({ kind: "tool", agentKind: "gemini-cli", tool: "run_shell_command" });
    const requestId = card.context!.requestId as string;
    const answered = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "tool.approval.answered",
      actor: "ops-admin",
      body: { requestId, decision: "allow", remember: "always" },
    });
    expect(answered.status).toBe(201);
    expect(decision(await held)).toBe("allow");
    const rules = (await state()).toolPolicies.policies.agents.gem.rules as { tool: string; input: string }[];
    expect(rules[0]).toMatchObject({ tool: "run_shell_command", input: "git push origin main" });
    // The rule in Gemini's name allows exactly that command; another push still asks.
    expect(decision(await gemini("run_shell_command", { command: "git push origin main" }, "g-push-2"))).toBe(
      "allow",
    );
  });
});
