// POST /api/v1/hooks/codex against the real server and database: Codex's recorded hook input
// lands as Codex's events (a retry stores once), and a gated call podwatch cannot check is
// answered 200 with a deny Codex reads (it would run the tool on any other status).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

const recorded = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", "codex", `${name}.json`), "utf8"));

describe.each(testProviders())("Codex's hook door on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => void (s = await startTestServer(provider)));
  afterAll(() => s?.stop());

  const hook = async (token: string, body: unknown, query = "") => {
    const res = await fetch(`${s.url}/api/v1/hooks/codex${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return {
      status: res.status,
      body: await res.json(),
      unreachable: res.headers.get("x-podwatch-unreachable"),
    };
  };

  it("records Codex's session, prompt and shell call as Codex's, once per hook", async () => {
    const { podId, tokens } = await agentPod(s.url, "Codex door", { codex: "implementer" });
    const token = tokens["codex"]!;
    for (const name of ["session-start", "user-prompt-submit", "post-tool-use-bash", "stop", "session-end"])
      expect(await hook(token, { ...recorded(name), transcript_path: null })).toMatchObject({
        status: 200,
        body: {},
      });
    // The same hook again, as a spool replays it: stored once.
    expect(
      (await hook(token, { ...recorded("session-start"), transcript_path: null }, "?replay=1")).status,
    ).toBe(200);
    const events = (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=100`)).body
      .events as {
      type: string;
      actor: string;
      body: Record<string, unknown>;
    }[];
    const ofAgent = events.filter((e) => e.actor === "codex");
    expect(ofAgent.map((e) => e.type)).toEqual([
      "session.started",
      "prompt.submitted",
      "tool.call",
      "note",
      "session.ended",
    ]);
    expect(ofAgent[0]!.body).toMatchObject({ via: "codex", model: "gpt-5.5" });
  });

  it("a gated call it cannot read is denied by the closed rule, 200, in the shape Codex reads", async () => {
    const { podId, tokens } = await agentPod(s.url, "Codex closed", { codex: "implementer" });
    const policy = { rules: [], unreachable: "closed" };
    const set = { type: "agent.policy.set", actor: "ops-admin", body: policy };
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, set)).status).toBe(201);
    const r = await hook(tokens["codex"]!, { hook_event_name: "PreToolUse", session_id: 7 });
    expect(r).toMatchObject({ status: 200, unreachable: "closed" });
    expect(Object.keys(r.body.hookSpecificOutput).sort()).toEqual([
      "hookEventName",
      "permissionDecision",
      "permissionDecisionReason",
    ]);
    expect(r.body.hookSpecificOutput).toMatchObject({
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
    });
    const bad = await hook("pwa_not-a-token", {
      ...recorded("pre-tool-use-bash"),
      hook_event_name: "PermissionRequest",
    });
    expect(bad.status).toBe(200);
    expect(bad.body.hookSpecificOutput.decision).toMatchObject({ behavior: "deny" });
  });
});
