// Agents and their tokens from both doors: the API's rotate route and the
// control room's server actions (add an agent with its first token, revoke,
// rotate), against a real server and database.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { io, type Socket } from "socket.io-client";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { performOperation } from "../web/perform-operation";
import { agentTokenOperations } from "./agent-token-operations";
import type { Identity } from "../domain/access/policy";
import { resolveIdentity } from "./resolve-identity";

describe.each(testProviders())("agent tokens on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let admin: Identity;

  beforeAll(async () => {
    s = await startTestServer(provider);
    podId = (await api(s.url, "POST", "/api/v1/pods", { name: "tokens", mode: "collaboration" })).body.id;
    const email = `admin-${randomUUID().slice(0, 6)}@example.com`;
    const password = "a long enough password";
    expect((await api(s.url, "POST", "/api/v1/users", { email, name: "Ada", password })).status).toBe(201);
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId: email,
          kind: "human",
          displayName: "Ada",
          roles: ["admin"],
        })
      ).status,
    ).toBe(201);
    const res = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: JSON.stringify({ email, password }),
    });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const id = await resolveIdentity(s.app.access, new Headers({ cookie }));
    if (id === "invalid" || id.kind !== "user") throw new Error("the pod admin could not sign in");
    admin = id;
  });
  afterAll(() => s.stop());

  const agent = async (memberId: string) => {
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId,
          kind: "agent",
          displayName: memberId,
          roles: [],
        })
      ).status,
    ).toBe(201);
    return (await api(s.url, "POST", `/api/v1/pods/${podId}/members/${memberId}/tokens`, { label: "laptop" }))
      .body as { id: string; token: string };
  };
  const me = async (token: string) => api(s.url, "GET", "/api/v1/me", undefined, { token });
  const eventCount = async () => (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount as number;
  const tokensOf = async (memberId: string) =>
    (
      (await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens as {
        id: string;
        memberId: string;
        label: string;
        revokedAt: string | null;
      }[]
    ).filter((t) => t.memberId === memberId);

  /** A live-tape socket on the token, subscribed; resolves once live, with a promise of how it ends. */
  async function liveSocket(token: string): Promise<{ socket: Socket; ended: Promise<string> }> {
    const socket = io(s.url, {
      transports: ["websocket"],
      forceNew: true,
      reconnection: false,
      auth: { token },
    });
    socket.on("tape:events", (_frame, ack) => ack?.());
    const ended = new Promise<string>((resolve) => socket.once("disconnect", (reason) => resolve(reason)));
    await new Promise<void>((resolve, reject) => {
      socket.once("tape:live", () => resolve());
      socket.once("tape:error", (e) => reject(new Error(e.message)));
      socket.once("connect_error", reject);
      socket.emit("tape:subscribe", { podId, afterSeq: 0 });
    });
    return { socket, ended };
  }

  it("rotating through the API: the new token works, the old one is refused and its socket ends at once", async () => {
    const old = await agent("rotating-bot");
    const { socket, ended } = await liveSocket(old.token);
    try {
      const r = await api(s.url, "POST", `/api/v1/pods/${podId}/tokens/${old.id}/rotate`);
      expect(r.status).toBe(201);
      expect(r.body.token).toMatch(/^pwa_/);
      expect(r.body.info).toMatchObject({
        podId,
        memberId: "rotating-bot",
        label: "laptop",
        revokedAt: null,
      });
      expect(r.body.revoked).toMatchObject({ id: old.id, revokedAt: r.body.info.createdAt });
      expect(await ended).toBe("io server disconnect");
      expect((await me(old.token)).status).toBe(401);
      expect((await me(r.body.token)).body).toEqual({ kind: "agent", memberId: "rotating-bot", podId });
      expect((await tokensOf("rotating-bot")).map((t) => ({ id: t.id, revoked: !!t.revokedAt }))).toEqual([
        { id: old.id, revoked: true },
        { id: r.body.info.id, revoked: false },
      ]);
      expect(JSON.stringify((await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body)).not.toContain(
        r.body.token,
      );
    } finally {
      socket.close();
    }
  });

  it("a revoked, unknown or other pod's token cannot be rotated, and nothing is created", async () => {
    const t = await agent("revoked-bot");
    expect((await api(s.url, "DELETE", `/api/v1/pods/${podId}/tokens/${t.id}`)).status).toBe(200);
    const again = await api(s.url, "POST", `/api/v1/pods/${podId}/tokens/${t.id}/rotate`);
    expect([again.status, again.body.error.code]).toEqual([409, "token_revoked"]);
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/tokens/${randomUUID()}/rotate`)).status).toBe(
      404,
    );
    const otherPod = (await api(s.url, "POST", "/api/v1/pods", { name: "other", mode: "collaboration" })).body
      .id;
    expect((await api(s.url, "POST", `/api/v1/pods/${otherPod}/tokens/${t.id}/rotate`)).status).toBe(404);
    expect(await tokensOf("revoked-bot")).toHaveLength(1);
  });

  it("two rotations at once: one wins, the other is refused, and one live token is left", async () => {
    const t = await agent("raced-bot");
    const [a, b] = await Promise.all(
      [0, 1].map(() => api(s.url, "POST", `/api/v1/pods/${podId}/tokens/${t.id}/rotate`)),
    );
    expect([a!.status, b!.status].sort()).toEqual([201, 409]);
    const live = (await tokensOf("raced-bot")).filter((x) => !x.revokedAt);
    expect(live).toHaveLength(1);
    expect((await me((a!.status === 201 ? a : b)!.body.token)).status).toBe(200);
  });

  it("addAgent (server action) adds the member with its roles and a working first token", async () => {
    const r = await performOperation(s.app, admin, agentTokenOperations.addAgent, {
      podId,
      memberId: "impl-1",
      displayName: "Implementer",
      roles: ["implementer", "verifier"],
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.value.member).toMatchObject({
      memberId: "impl-1",
      kind: "agent",
      roles: ["implementer", "verifier"],
    });
    expect(r.value.info).toMatchObject({
      memberId: "impl-1",
      createdBy: (admin as { email: string }).email,
      revokedAt: null,
    });
    expect((await me(r.value.token)).body).toEqual({ kind: "agent", memberId: "impl-1", podId });
    const state = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(state.members.find((m: { memberId: string }) => m.memberId === "impl-1")).toMatchObject({
      kind: "agent",
      displayName: "Implementer",
      roles: ["implementer", "verifier"],
    });
  });

  it("addAgent refuses a duplicate id, a reserved id and an unknown role with a clear message, leaving nothing behind", async () => {
    await performOperation(s.app, admin, agentTokenOperations.addAgent, {
      podId,
      memberId: "dup-bot",
      displayName: "Dup",
      roles: [],
    });
    const before = {
      events: await eventCount(),
      tokens: (await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens.length,
    };
    const dup = await performOperation(s.app, admin, agentTokenOperations.addAgent, {
      podId,
      memberId: "dup-bot",
      displayName: "Again",
      roles: [],
    });
    expect(dup).toEqual({
      ok: false,
      code: "member_exists",
      error: "dup-bot is already a member of this pod; choose another id",
    });
    const reserved = await performOperation(s.app, admin, agentTokenOperations.addAgent, {
      podId,
      memberId: "constructor",
      displayName: "X",
      roles: [],
    });
    expect(reserved).toMatchObject({
      ok: false,
      code: "invalid_request",
      error: "memberId: is a reserved name",
    });
    const role = await performOperation(s.app, admin, agentTokenOperations.addAgent, {
      podId,
      memberId: "new-bot",
      displayName: "X",
      roles: ["wizard"],
    });
    expect(role).toMatchObject({
      ok: false,
      code: "invalid_request",
      error: expect.stringContaining('unknown role "wizard"'),
    });
    // A second chair is refused by the tape's rules before any token exists.
    await performOperation(s.app, admin, agentTokenOperations.addAgent, {
      podId,
      memberId: "chair-bot",
      displayName: "Chair",
      roles: ["chair"],
    });
    const mid = {
      events: await eventCount(),
      tokens: (await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens.length,
    };
    const chair = await performOperation(s.app, admin, agentTokenOperations.addAgent, {
      podId,
      memberId: "chair-2",
      displayName: "Chair 2",
      roles: ["chair"],
    });
    expect(chair).toMatchObject({ ok: false, code: "chair_taken" });
    expect({
      events: await eventCount(),
      tokens: (await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens.length,
    }).toEqual(mid);
    expect(mid.tokens).toBe(before.tokens + 1);
    expect(
      (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.members.map(
        (m: { memberId: string }) => m.memberId,
      ),
    ).not.toContain("chair-2");
  });

  it("revokeAgentToken (server action) uses the API's use-case: the token is refused and its socket ends at once", async () => {
    const t = await agent("revoke-me");
    const { socket, ended } = await liveSocket(t.token);
    try {
      const r = await performOperation(s.app, admin, agentTokenOperations.revokeAgentToken, {
        podId,
        tokenId: t.id,
      });
      expect(r).toMatchObject({ ok: true, value: { id: t.id, revokedAt: expect.any(String) } });
      expect(await ended).toBe("io server disconnect");
      expect((await me(t.token)).status).toBe(401);
    } finally {
      socket.close();
    }
  });

  it("rotateAgentToken (server action): the new token in the result only, the old one refused", async () => {
    const t = await agent("rotate-me");
    const r = await performOperation(s.app, admin, agentTokenOperations.rotateAgentToken, {
      podId,
      tokenId: t.id,
    });
    if (!r.ok) throw new Error(r.error);
    expect((await me(t.token)).status).toBe(401);
    expect((await me(r.value.token)).status).toBe(200);
  });
});
