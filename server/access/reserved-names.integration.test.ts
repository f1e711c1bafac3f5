// Look-alikes of `podwatch` (the server's own voice on the tape) are refused at every door that
// adds a member — the API's members route, the events API's member.joined, the control room's
// "add an agent" — as a member id or a display name, with a 422 and nothing stored.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { performOperation } from "../web/perform-operation";
import { agentTokenOperations } from "./agent-token-operations";
import { memberOperations } from "./member-operations";
import type { Identity } from "../domain/access/policy";
import { resolveIdentity } from "./resolve-identity";

const LOOK_ALIKE_IDS = {
  "zero-width space": "pod\u200Bwatch",
  "Cyrillic о": "p\u043Edwatch",
  "soft hyphen": "pod\u00ADwatch",
  "word joiner": "pod\u2060watch",
};
const LOOK_ALIKE_NAMES = {
  plain: "podwatch",
  capitals: "PodWatch",
  "Cyrillic а": "podw\u0430tch",
  "zero-width joiner": "podwa\u200Dtch",
};

describe.each(testProviders())("reserved names on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let admin: Identity;
  const eventCount = async () => (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount as number;

  beforeAll(async () => {
    s = await startTestServer(provider);
    podId = (await api(s.url, "POST", "/api/v1/pods", { name: "names", mode: "collaboration" })).body.id;
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
    const id = await resolveIdentity(
      s.app.access,
      new Headers({
        cookie: res.headers
          .getSetCookie()
          .map((c) => c.split(";")[0])
          .join("; "),
      }),
    );
    if (id === "invalid" || id.kind !== "user") throw new Error("the pod admin could not sign in");
    admin = id;
  });
  afterAll(() => s?.stop());

  it.each(Object.entries(LOOK_ALIKE_IDS))(
    "a member id of podwatch with a %s is refused by the members route, the events API and the control room",
    async (_what, memberId) => {
      const before = await eventCount();
      const viaRoute = await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
        memberId,
        kind: "agent",
        displayName: "Helper",
        roles: ["implementer"],
      });
      expect([viaRoute.status, viaRoute.body.error.code]).toEqual([422, "reserved_member"]);
      expect(viaRoute.body.error.message).toContain("reads as podwatch");
      const viaEvents = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
        type: "member.joined",
        actor: "admin",
        body: { memberId, kind: "agent", displayName: "Helper" },
      });
      expect([viaEvents.status, viaEvents.body.error.code]).toEqual([422, "reserved_member"]);
      const viaAction = await performOperation(s.app, admin, agentTokenOperations.addAgent, {
        podId,
        memberId,
        displayName: "Helper",
        roles: [],
      });
      expect(viaAction).toMatchObject({
        ok: false,
        code: "reserved_member",
        error: expect.stringContaining("reads as podwatch"),
      });
      expect(await eventCount()).toBe(before);
      const members = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.members as {
        memberId: string;
      }[];
      expect(members.map((m) => m.memberId)).not.toContain(memberId);
    },
  );

  it.each(Object.entries(LOOK_ALIKE_NAMES))(
    "a display name of podwatch (%s) is refused at the same doors",
    async (_what, displayName) => {
      const before = await eventCount();
      const viaRoute = await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
        memberId: "helper",
        kind: "agent",
        displayName,
        roles: [],
      });
      expect([viaRoute.status, viaRoute.body.error.code]).toEqual([422, "reserved_member"]);
      expect(viaRoute.body.error.message).toContain("display name");
      const viaEvents = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
        type: "member.joined",
        actor: "admin",
        body: { memberId: "helper", kind: "agent", displayName },
      });
      expect([viaEvents.status, viaEvents.body.error.code]).toEqual([422, "reserved_member"]);
      expect(
        await performOperation(s.app, admin, agentTokenOperations.addAgent, {
          podId,
          memberId: "helper",
          displayName,
          roles: [],
        }),
      ).toMatchObject({ ok: false, code: "reserved_member" });
      expect(await eventCount()).toBe(before);
    },
  );

  it("a person whose account is named PodWatch joins under their email, not as podwatch", async () => {
    const email = `pw-${randomUUID().slice(0, 6)}@example.com`;
    expect(
      (
        await api(s.url, "POST", "/api/v1/users", {
          email,
          name: "P\u043EdWatch",
          password: "a long enough password",
        })
      ).status,
    ).toBe(201);
    expect(
      await performOperation(s.app, admin, memberOperations.addPersonToPod, {
        podId,
        email,
        access: "viewer",
      }),
    ).toMatchObject({ ok: true });
    const members = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.members as {
      memberId: string;
      displayName: string;
    }[];
    expect(members.find((m) => m.memberId === email)).toMatchObject({ displayName: email });
  });

  it("an actor that reads as podwatch may not speak, and ordinary names still join", async () => {
    const voice = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "checkpoint",
      actor: "p\u043Edwatch",
      body: { completed: ["x"], next: [], blocked: [] },
    });
    expect([voice.status, voice.body.error.code]).toEqual([403, "system_actor"]);
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId: "podwatcher",
          kind: "agent",
          displayName: "Pod Watcher",
          roles: [],
        })
      ).status,
    ).toBe(201);
  });
});
