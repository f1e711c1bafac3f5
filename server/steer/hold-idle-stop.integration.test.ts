// An idle agent's Stop held for a person's Resume, against the real server and database: with the
// agent's policy's idleHold set, Claude Code's Stop hook waits; a person's Resume answers it with the
// block that makes the agent carry on, delivered once on the tape. Nothing said: the Stop is let
// through when the hold runs out, is turned off, the pod closes (or pauses), or the server drains.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { eventually } from "../testing/eventually";

const SESSION = "5b0c2f7e-8d1a-4c3b-9e6f-7a2d4c1e9b30";
type Ev = { type: string; actor: string; body: Record<string, any>; meta?: { sessionId?: string } };

describe.each(testProviders())("an idle Stop held for a person's Resume on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(provider);
  });
  afterAll(() => s?.stop());

  const events = async (podId: string): Promise<Ev[]> =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events;
  const policy = async (podId: string, body: Record<string, unknown>) =>
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "agent.policy.set",
          actor: "ops-admin",
          body: { rules: [], ...body },
        })
      ).status,
    ).toBe(201);
  /** A pod whose agent claude is in a turn of SESSION; `idleHold`: its pod policy's. */
  async function pod(name: string, idleHold?: number) {
    const { podId, tokens } = await agentPod(s.url, name, { claude: "implementer" });
    const member = { memberId: "pia@example.com", kind: "human", displayName: "Pia", roles: ["approver"] };
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/members`, member)).status).toBe(201);
    if (idleHold !== undefined) await policy(podId, { idleHold });
    const token = tokens["claude"]!;
    await hook(token, { hook_event_name: "UserPromptSubmit", prompt: "add paging" });
    return { podId, token };
  }
  async function hook(token: string, body: Record<string, unknown>) {
    const res = await fetch(`${s.url}/api/v1/hooks/claude-code`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ session_id: SESSION, cwd: "/home/dev/shop", ...body }),
    });
    expect(res.status).toBe(200);
    return res.json();
  }
  const stop = (token: string, message = "Done.") =>
    hook(token, { hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: message });
  const steer = (podId: string, steerId: string, act: string, text: string) =>
    api(s.url, "POST", `/api/v1/pods/${podId}/sessions/${SESSION}/steer`, { steerId, act, text });
  const heldOn = (podId: string) =>
    eventually(
      async () => (await events(podId)).filter((e) => e.type === "session.idle.held"),
      (held) => held.length === 1,
      "the Stop held",
    ).then((held) => held[0]!);

  it("without idleHold the Stop is let through at once, and nothing says it is held", async () => {
    const { podId, token } = await pod("idle off");
    expect(await stop(token)).toEqual({});
    expect((await events(podId)).map((e) => e.type)).not.toContain("session.idle.held");
  });

  it("a Resume with a message answers the held Stop with a block, delivered once", async () => {
    const { podId, token } = await pod("idle resume", 60);
    const answer = stop(token);
    const held = await heldOn(podId);
    expect(held.actor).toBe("claude");
    expect(held.meta?.sessionId).toBe(SESSION);
    const until = Date.parse(held.body.until) - Date.now();
    expect(until).toBeGreaterThan(30_000);
    expect(until).toBeLessThanOrEqual(60_000);
    // Now and the Sessions tab read it from the state: the turn ended, the session waits for a person.
    const view = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(view.sessions[0]).toMatchObject({ turn: { open: false }, idleHold: { until: held.body.until } });
    expect((await steer(podId, "r-1", "resume", "Now do the same for refunds")).status).toBe(201);
    const answered = await answer;
    expect(answered).toEqual({ decision: "block", reason: expect.any(String) });
    expect(answered.reason).toMatch(/ says, from podwatch: Now do the same for refunds$/);
    const delivered = (await events(podId)).filter((e) => e.type === "session.steer.delivered");
    expect(delivered.map((e) => [e.actor, e.body.steerId, e.body.via])).toEqual([["claude", "r-1", "Stop"]]);
  });

  it("a word to another session does not end the hold; its time running out lets the Stop through", async () => {
    const { podId, token } = await pod("idle timeout", 2);
    const other = "0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b";
    await hook(token, { hook_event_name: "UserPromptSubmit", prompt: "other", session_id: other });
    const answer = stop(token);
    await heldOn(podId);
    const sent = await api(s.url, "POST", `/api/v1/pods/${podId}/sessions/${other}/steer`, {
      steerId: "o-1",
      act: "message",
      text: "for the other one",
    });
    expect(sent.status).toBe(201);
    expect(await answer).toEqual({});
    expect((await events(podId)).map((e) => e.type)).not.toContain("session.steer.delivered");
  });

  it("turning the hold off, or closing the pod, lets a held Stop through at once", async () => {
    const off = await pod("idle turned off", 300);
    const first = stop(off.token);
    await heldOn(off.podId);
    await policy(off.podId, { idleHold: 0 });
    expect(await first).toEqual({});

    const closed = await pod("idle closed", 300);
    const second = stop(closed.token);
    await heldOn(closed.podId);
    const close = { type: "pod.closed", actor: "ops-admin", body: {} };
    expect((await api(s.url, "POST", `/api/v1/pods/${closed.podId}/events`, close)).status).toBe(201);
    expect(await second).toEqual({});
  });

  it("an agent's own idleHold wins over the pod's", async () => {
    const { podId, token } = await pod("idle agent's own", 300);
    await policy(podId, { agentId: "claude", idleHold: 0 });
    expect(await stop(token)).toEqual({});
    expect((await events(podId)).map((e) => e.type)).not.toContain("session.idle.held");
  });

  // Last: the drain cannot be undone on this server.
  it("a drain answers a held Stop at once, letting it through", async () => {
    const { podId, token } = await pod("idle drain", 300);
    const answer = stop(token);
    await heldOn(podId);
    s.app.drain.begin();
    expect(await answer).toEqual({});
  });
});
