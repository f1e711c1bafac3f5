// Found by the fuzz test on PostgreSQL: a NUL byte (or another control character)
// in a path segment, a query or an id reached the database, which refuses NUL in
// text ("invalid byte sequence"), and the request got a 500. Such input is a 400 at the door.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

describe.each(testProviders())("control characters in ids, paths and queries on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  beforeAll(async () => {
    s = await startTestServer(provider);
    podId = (await api(s.url, "POST", "/api/v1/pods", { name: "nul", mode: "collaboration" })).body.id;
  });
  afterAll(() => s.stop());

  it("in a path segment: 400, on every kind of route", async () => {
    for (const path of [
      `/api/v1/pods/%00${podId.slice(1)}/events`,
      `/api/v1/pods/a%00b`,
      `/api/v1/pods/${podId}/members/a%01b/tokens`,
      `/api/v1/pods/${podId}/workcells/w%00/proof`,
    ]) {
      const r = await api(
        s.url,
        path.endsWith("tokens") || path.endsWith("proof") ? "POST" : "GET",
        path,
        path.endsWith("proof") ? {} : undefined,
      );
      expect(r.status, path).toBe(400);
      expect(r.body.error.code, path).toBe("bad_path");
    }
  });

  it("in a search query: 400", async () => {
    for (const q of [
      "actor=a%00b",
      "q=%00",
      "type=note%00",
      "taskId=%00",
      "runId=x%00",
      "role=%00",
      "q=tab%09",
    ]) {
      const r = await api(s.url, "GET", `/api/v1/pods/${podId}/events?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.code, q).toBe("bad_path");
    }
  });

  it("in any JSON body: 400, nothing stored — events, pods, members, token labels, people", async () => {
    const requests: [string, unknown][] = [
      [
        `/api/v1/pods/${podId}/events`,
        {
          type: "member.joined",
          actor: "admin",
          body: { memberId: "a\u0000b", kind: "agent", displayName: "nul" },
        },
      ],
      [
        `/api/v1/pods/${podId}/events`,
        { type: "note", actor: "x\u0000", body: { kind: "STATUS", text: "t" } },
      ],
      ["/api/v1/pods", { name: "a\u0000", mode: "collaboration" }],
      [
        `/api/v1/pods/${podId}/members`,
        { memberId: "m\u0000", kind: "agent", displayName: "d", roles: ["implementer"] },
      ],
      [
        `/api/v1/pods/${podId}/members`,
        { memberId: "m1", kind: "agent", displayName: "d\u0000", roles: ["implementer"] },
      ],
      ["/api/v1/users", { email: "nul@example.com", name: "n\u0000", password: "a long enough password" }],
    ];
    for (const [path, body] of requests) {
      const r = await api(s.url, "POST", path, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe("nul_character");
    }
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId: "m1",
          kind: "agent",
          displayName: "d",
          roles: ["implementer"],
        })
      ).status,
    ).toBe(201);
    const label = await api(s.url, "POST", `/api/v1/pods/${podId}/members/m1/tokens`, { label: "l\u0000" });
    expect(label.status).toBe(400);
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens).toEqual([]);
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount).toBe(2); // m1 joined, with its role
  });

  it("a lone surrogate in a JSON body: 400, nothing stored, and the pod's filtered searches keep working", async () => {
    const before = (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount;
    for (const raw of [
      '{"type":"note","actor":"admin","taskId":"t1","body":{"kind":"STATUS","text":"\\ud800"}}',
      '{"type":"note","actor":"admin","body":{"kind":"STATUS","text":"ok","x\\udc00":1}}',
    ]) {
      const r = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, raw);
      expect(r.status, raw).toBe(400);
      expect(r.body.error.code).toBe("lone_surrogate");
    }
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount).toBe(before);
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/events?taskId=t1`)).status).toBe(200);
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/events?q=ok`)).status).toBe(200);
  });
});
