// Creating pods (who may, what lands on the tape, nothing half-made), archiving,
// and share links with labels and expiries: the API and its server-action twins
// on a real server and database.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { resolveIdentity } from "../access/resolve-identity";
import { performOperation } from "../web/perform-operation";
import { peopleOperations } from "../access/people-operations";
import { podOperations } from "./pod-operations";
import { createPod } from "./create-pod";
import { SHARE_LINK_NEVER } from "../wire/access";

describe.each(testProviders())("creating pods on %s", (provider) => {
  let s: TestServer;
  const password = "a long enough password";
  let ana: { id: string; email: string; cookie: string };
  let bob: { id: string; email: string; cookie: string };

  async function person(name: string) {
    const email = `${name}-${randomUUID().slice(0, 6)}@example.com`;
    const created = await api(s.url, "POST", "/api/v1/users", { email, name, password });
    expect(created.status).toBe(201);
    const res = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(200);
    return {
      id: created.body.id as string,
      email,
      cookie: res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; "),
    };
  }
  const podCount = () => s.app.store.prisma.pod.count();
  const identityOf = async (cookie: string) => {
    const id = await resolveIdentity(s.app.access, new Headers({ cookie }));
    if (id === "invalid") throw new Error("no session");
    return id;
  };

  beforeAll(async () => {
    s = await startTestServer(provider);
    ana = await person("ana");
    bob = await person("bob");
  });
  afterAll(() => s.stop());

  it("refuses a person a site admin did not allow, until one does; only a site admin may allow", async () => {
    const before = await podCount();
    const refused = await api(
      s.url,
      "POST",
      "/api/v1/pods",
      { name: "mine", mode: "collaboration" },
      { cookie: ana.cookie },
    );
    expect(refused.status).toBe(403);
    expect(await podCount()).toBe(before);
    expect(
      (await api(s.url, "PATCH", `/api/v1/users/${bob.id}`, { canCreatePods: true }, { cookie: ana.cookie }))
        .status,
    ).toBe(403);
    expect((await api(s.url, "PATCH", `/api/v1/users/${ana.id}`, { canCreatePods: true }, null)).status).toBe(
      401,
    );
    expect((await api(s.url, "PATCH", `/api/v1/users/${ana.id}`, { canCreatePods: "yes" })).status).toBe(400);
    expect((await api(s.url, "PATCH", `/api/v1/users/nobody`, { canCreatePods: true })).status).toBe(404);
    const allowed = await api(s.url, "PATCH", `/api/v1/users/${ana.id}`, { canCreatePods: true });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ id: ana.id, email: ana.email, canCreatePods: true, isAdmin: false });
    expect(await identityOf(ana.cookie)).toMatchObject({ kind: "user", canCreatePods: true });
  });

  it("a person who may creates a pod: they join as its admin and the scope is agreed with its cadence", async () => {
    const res = await api(
      s.url,
      "POST",
      "/api/v1/pods",
      {
        name: "payments",
        mode: "contracting",
        scope: "Split payments",
        successCriteria: ["Tests pass", "Docs"],
        cadenceMinutes: 15,
      },
      { cookie: ana.cookie },
    );
    expect(res.status).toBe(201);
    const podId = res.body.id;
    const events = (
      await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0`, undefined, { cookie: ana.cookie })
    ).body.events;
    expect(events.map((e: any) => [e.type, e.actor])).toEqual([
      ["member.joined", ana.email],
      ["pod.scope_agreed", ana.email],
    ]);
    expect(events[0].body).toMatchObject({ memberId: ana.email, kind: "human", access: "admin" });
    expect(events[1].body).toEqual({
      scope: "Split payments",
      successCriteria: ["Tests pass", "Docs"],
      cadenceMinutes: 15,
    });
    const list = (await api(s.url, "GET", "/api/v1/pods", undefined, { cookie: ana.cookie })).body.pods;
    expect(list).toEqual([
      expect.objectContaining({
        id: podId,
        status: "forming",
        cadenceMinutes: 15,
        access: "admin",
        archivedAt: null,
      }),
    ]);
    // As its admin, Ana manages it: a share link, and starting it from the tape's rules.
    expect(
      (await api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, {}, { cookie: ana.cookie })).status,
    ).toBe(201);
  });

  it("answers bad input with 400, naming the field, and creates nothing", async () => {
    const before = await podCount();
    for (const [body, path] of [
      [{ name: "", mode: "collaboration" }, "name"],
      [{ name: "x", mode: "solo" }, "mode"],
      [
        { name: "x", mode: "collaboration", scope: "S", successCriteria: ["ok"], cadenceMinutes: 2 },
        "cadenceMinutes",
      ],
      [{ name: "x", mode: "collaboration", successCriteria: ["ok"] }, "scope"],
      [{ name: "x", mode: "collaboration", scope: "S", successCriteria: [" "] }, "successCriteria.0"],
    ] as const) {
      const res = await api(s.url, "POST", "/api/v1/pods", body, { cookie: ana.cookie });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.issues.map((i: any) => i.path)).toContain(path);
    }
    expect(await podCount()).toBe(before);
  });

  it("leaves no pod behind when the tape refuses its first events", async () => {
    const before = await podCount();
    // The real write path, sent the pod's first events twice: the second member.joined breaks a rule (member_exists), so the whole append is refused.
    const appendTwice: typeof s.app.append = (podId, events, as) =>
      s.app.append(podId, [...events, ...events], as);
    const req = { name: "half", mode: "collaboration" as const, scope: "S", successCriteria: ["ok"] };
    await expect(
      createPod(s.app.store, s.app.bus, appendTwice, req, {
        actor: ana.email,
        person: { memberId: ana.email, displayName: "Ana" },
        as: { kind: "user", userId: "ana", email: ana.email, name: "Ana", isAdmin: false },
      }),
    ).rejects.toMatchObject({ status: 409, code: "member_exists" });
    expect(await podCount()).toBe(before);
    expect(await s.app.store.prisma.pod.findFirst({ where: { name: "half" } })).toBeNull();
  });

  it("the server actions are the API's twins: same guard, same use-case", async () => {
    const bobId = await identityOf(bob.cookie);
    const refused = await performOperation(s.app, bobId, podOperations.createPod, {
      name: "b",
      mode: "collaboration",
    });
    expect(refused).toMatchObject({ ok: false, code: "forbidden" });
    expect(
      await performOperation(s.app, bobId, peopleOperations.setCanCreatePods, {
        userId: bob.id,
        canCreatePods: true,
      }),
    ).toMatchObject({ ok: false, code: "forbidden" });
    const invalid = await performOperation(s.app, await identityOf(ana.cookie), podOperations.createPod, {
      name: "b",
      mode: "collaboration",
      scope: "S",
      successCriteria: [],
    });
    expect(invalid).toMatchObject({ ok: false, code: "invalid_request" });
    const made = await performOperation(s.app, await identityOf(ana.cookie), podOperations.createPod, {
      name: "from the form",
      mode: "collaboration",
      scope: "S",
      successCriteria: ["ok"],
    });
    expect(made).toMatchObject({ ok: true, value: { name: "from the form", eventCount: 2 } });
  });

  it("archives and unarchives for pod admins only; archived pods leave the default list", async () => {
    const podId = (
      await api(s.url, "POST", "/api/v1/pods", { name: "old", mode: "collaboration" }, { cookie: ana.cookie })
    ).body.id;
    expect(
      (await api(s.url, "POST", `/api/v1/pods/${podId}/archive`, undefined, { cookie: bob.cookie })).status,
    ).toBe(403);
    const archived = await api(s.url, "POST", `/api/v1/pods/${podId}/archive`, undefined, {
      cookie: ana.cookie,
    });
    expect(archived.status).toBe(200);
    expect(archived.body.archivedAt).toEqual(expect.any(String));
    const ids = async (q = "") =>
      (await api(s.url, "GET", `/api/v1/pods${q}`, undefined, { cookie: ana.cookie })).body.pods.map(
        (p: any) => p.id,
      );
    expect(await ids()).not.toContain(podId);
    expect(await ids("?archived=1")).toEqual([podId]);
    expect(
      (
        await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0`, undefined, { cookie: ana.cookie })
      ).body.events.map((e: any) => e.type),
    ).toEqual(["member.joined"]); // not on the tape
    expect(
      (await api(s.url, "POST", `/api/v1/pods/${podId}/unarchive`, undefined, { cookie: ana.cookie })).body
        .archivedAt,
    ).toBeNull();
    expect(await ids()).toContain(podId);
  });

  it("share links take a label and an expiry: hours, a date, or never; a past date is refused", async () => {
    const podId = (await api(s.url, "POST", "/api/v1/pods", { name: "shared", mode: "collaboration" })).body
      .id;
    const never = await api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, {
      expiresInHours: null,
      label: "for the client",
    });
    expect(never.status).toBe(201);
    expect(never.body).toMatchObject({
      label: "for the client",
      expiresAt: SHARE_LINK_NEVER,
      lastUsedAt: null,
    });
    const at = new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect(
      (await api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, { expiresAt: at })).body.expiresAt,
    ).toBe(at);
    expect(
      (await api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, { expiresAt: "2001-01-01T00:00:00Z" }))
        .status,
    ).toBe(400);
    expect(
      (await api(s.url, "GET", `/api/v1/pods/${podId}`, undefined, { token: never.body.token })).status,
    ).toBe(200);
    const listed = (await api(s.url, "GET", `/api/v1/pods/${podId}/share-links`)).body.links;
    await expect
      .poll(
        async () =>
          (await s.app.store.prisma.shareLink.findUnique({ where: { id: never.body.id } }))?.lastUsedAt,
      )
      .toEqual(expect.any(String));
    expect(listed.every((l: any) => !("token" in l) && !("tokenHash" in l))).toBe(true);
  });
});
