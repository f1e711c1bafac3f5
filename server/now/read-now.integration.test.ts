// "Now" on the real server and database: Claude Code's and Codex's sessions, reported through
// their hook doors with their own hook JSON, read as working; a call the pod's rule holds moves its
// session to "needs you" with the item, for a person who may answer it; the answer lets the hook
// return allow and the session works again; a Stop makes it idle, a SessionEnd ended today; silence
// makes it stale (an hour, while a tool runs). The REST answer is exactly the operation's schema.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { eventually } from "../testing/eventually";
import { readHookFixture } from "../hooks/fixtures";
import type { Identity } from "../domain/access/policy";
import { performOperation } from "../web/perform-operation";
import { inboxOperations } from "../pods/inbox-operations";
import { callApi } from "../../components/shared/api-client";
import { readNowRoute } from "../../components/shared/api-routes";
import { ZNowResponse } from "../wire/now";
import { readNow } from "./read-now";
import { createAgentToken, revokeAgentToken } from "../access/agent-tokens";

const codex = (name: string): Record<string, unknown> => ({
  ...JSON.parse(
    readFileSync(join(import.meta.dirname, "..", "hooks", "fixtures", "codex", `${name}.json`), "utf8"),
  ),
  transcript_path: null,
});
const CLAUDE_SESSION = readHookFixture("session-start").session_id as string;
const CODEX_SESSION = codex("session-start").session_id as string;
const ana = {
  kind: "user",
  userId: "u-ana",
  email: "ana@example.com",
  name: "Ana",
  isAdmin: false,
} as Identity;

describe.each(testProviders())("Now on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => void (s = await startTestServer(provider)));
  afterAll(() => s?.stop());

  const hook = async (door: string, token: string, body: unknown, query = "") => {
    const res = await fetch(`${s.url}/api/v1/hooks/${door}${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const stateOf = async (who: Identity, podId: string, at?: number) =>
    Object.fromEntries(
      (await readNow(s.app.store, who, podId, at)).sessions.map((x) => [x.agentId, x] as const),
    );

  it("two vendors' sessions work, wait for a person, are answered there, go idle and end", async () => {
    const { podId, tokens } = await agentPod(s.url, "Now", { claude: "implementer", codex: "implementer" });
    const admin = (body: unknown) => api(s.url, "POST", `/api/v1/pods/${podId}/events`, body);
    const person = { memberId: "ana@example.com", kind: "human", displayName: "Ana", roles: ["approver"] };
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/members`, person)).status).toBe(201);
    const rules = [{ id: "push", tool: "Bash", input: "git push*", action: "ask" }];
    expect((await admin({ type: "agent.policy.set", actor: "ops-admin", body: { rules } })).status).toBe(201);

    for (const name of ["session-start", "user-prompt-submit", "pre-tool-use-read"] as const)
      expect((await hook("claude-code", tokens.claude!, readHookFixture(name))).status).toBe(200);
    for (const name of ["session-start", "user-prompt-submit"])
      expect((await hook("codex", tokens.codex!, codex(name))).status).toBe(200);
    let now = await stateOf(ana, podId);
    expect(now.claude).toMatchObject({
      state: "working",
      kind: "claude-code",
      sessionId: CLAUDE_SESSION,
      turn: { tool: "Read" },
      items: [],
    });
    expect(now.codex).toMatchObject({
      state: "working",
      kind: "codex",
      sessionId: CODEX_SESSION,
      turn: { tool: null },
    });

    const held = hook("claude-code", tokens.claude!, readHookFixture("pre-tool-use-git-push"), "?wait=60");
    now = await eventually(
      () => stateOf(ana, podId),
      (n) => n.claude?.state === "needs-you",
      "the held call to reach Now",
    );
    const [item] = now.claude!.items;
    expect(item).toMatchObject({ kind: "tool_approval", canAct: true, podId });
    expect(now.codex!.state).toBe("working");
    // A site admin who is not one of the pod's people sees the session, but nothing there is theirs to answer.
    expect((await stateOf({ kind: "admin-token" } as Identity, podId)).claude).toMatchObject({
      state: "working",
      items: [],
    });

    const answer = { requestId: item!.subject.id, decision: "allow" as const, reason: "ship it" };
    const r = await performOperation(s.app, ana, inboxOperations.answerToolApproval, { podId, answer });
    expect(r.ok).toBe(true);
    expect((await held).body.hookSpecificOutput).toMatchObject({ permissionDecision: "allow" });
    now = await stateOf(ana, podId);
    expect(now.claude).toMatchObject({ state: "working", turn: { tool: "Bash" }, items: [] });

    expect((await hook("codex", tokens.codex!, codex("stop"))).status).toBe(200);
    expect((await stateOf(ana, podId)).codex!.state).toBe("idle");
    expect((await hook("codex", tokens.codex!, codex("session-end"))).status).toBe(200);
    expect((await stateOf(ana, podId)).codex!.state).toBe("ended-today");

    // Its git push runs on: eleven silent minutes are still work, an hour and one are stale; tomorrow the ended one is gone.
    expect((await stateOf(ana, podId, Date.now() + 11 * 60_000)).claude!.state).toBe("working");
    expect((await stateOf(ana, podId, Date.now() + 61 * 60_000)).claude!.state).toBe("stale");
    expect((await stateOf(ana, podId, Date.now() + 2 * 86_400_000)).codex).toBeUndefined();

    const options = { base: s.url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } };
    const all = await callApi(readNowRoute, {}, options);
    expect(ZNowResponse.parse(all)).toEqual(all);
    expect(all.pods.map((p) => p.id)).toContain(podId);
    expect(all.sessions.filter((x) => x.podId === podId).map((x) => x.state)).toEqual([
      "working",
      "ended-today",
    ]);
  });

  it("says each agent's cost today and who may steer its sessions", async () => {
    const { podId, tokens } = await agentPod(s.url, "Now cost", { claude: "implementer" });
    for (const [memberId, access] of [
      ["ana@example.com", "approver"],
      ["vic@example.com", "viewer"],
    ] as const) {
      const person = { memberId, kind: "human", displayName: memberId, roles: [access] };
      expect((await api(s.url, "POST", `/api/v1/pods/${podId}/members`, person)).status).toBe(201);
    }
    expect((await hook("claude-code", tokens.claude!, readHookFixture("session-start"))).status).toBe(200);
    const usage = (costUsd: number) => ({
      type: "usage.reported",
      actor: "claude",
      sessionId: CLAUDE_SESSION,
      body: { model: "claude-sonnet-4-5", inputTokens: 10, outputTokens: 5, costUsd, source: "transcript" },
    });
    const asAgent = { token: tokens.claude! };
    for (const cost of [0.25, 0.5])
      expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, usage(cost), asAgent)).status).toBe(
        201,
      );

    const now = await stateOf(ana, podId);
    expect(now.claude).toMatchObject({ agentCostTodayUsd: 0.75, canSteer: true, ended: false, steers: [] });
    const vic = { ...ana, userId: "u-vic", email: "vic@example.com", name: "Vic" } as Identity;
    expect((await stateOf(vic, podId)).claude).toMatchObject({ canSteer: false });
    // A site admin sees the session, but the pod hears steering only from its own approvers.
    const root = {
      ...ana,
      userId: "u-root",
      email: "root@example.com",
      name: "Root",
      isAdmin: true,
    } as Identity;
    expect((await stateOf(root, podId)).claude).toMatchObject({ canSteer: false });
    // Tomorrow the day is new: nothing reported yet.
    expect((await stateOf(ana, podId, Date.now() + 86_400_000)).claude?.agentCostTodayUsd ?? null).toBeNull();
  });

  it("says who connected each agent: the maker of its newest live token", async () => {
    const { podId, tokens } = await agentPod(s.url, "Now people", {
      claude: "implementer",
      codex: "implementer",
    });
    const person = { memberId: "ana@example.com", kind: "human", displayName: "Ana", roles: ["admin"] };
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/members`, person)).status).toBe(201);
    const made = await createAgentToken(s.app.store, {
      podId,
      memberId: "codex",
      createdBy: "ana@example.com",
    });
    expect((await hook("claude-code", tokens.claude!, readHookFixture("session-start"))).status).toBe(200);
    expect((await hook("codex", made.token, codex("session-start"))).status).toBe(200);

    const now = await stateOf(ana, podId);
    expect(now.codex!.connectedBy).toEqual({ id: "ana@example.com", name: "Ana" });
    const admin = now.claude!.connectedBy;
    expect(admin?.id).toBeTruthy();
    expect(admin?.id).not.toBe("ana@example.com");
    // Her token revoked, the agent's newest live one is the admin's again.
    await revokeAgentToken(s.app.store, s.app.bus, podId, made.info.id);
    expect((await stateOf(ana, podId)).codex!.connectedBy).toEqual(admin);
  });

  it("shows a person only the pods they are in", async () => {
    const { podId, tokens } = await agentPod(s.url, "Not Ana's", { claude: "implementer" });
    expect((await hook("claude-code", tokens.claude!, readHookFixture("session-start"))).status).toBe(200);
    const mine = await readNow(s.app.store, { ...ana, userId: "u-bo", email: "bo@example.com" } as Identity);
    expect(mine.pods.map((p) => p.id)).not.toContain(podId);
    expect(mine.sessions.filter((x) => x.podId === podId)).toEqual([]);
    const anon = await fetch(`${s.url}/api/v1/now`);
    expect(anon.status).toBe(401);
  });
});
