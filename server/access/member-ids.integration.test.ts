// One id rule: member ids are the event schema's ids (ZId) at every door, so a
// name like "__proto__" can never become a key of a projection.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

describe.each(testProviders())("member ids on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  beforeAll(async () => {
    s = await startTestServer(provider);
    podId = (await api(s.url, "POST", "/api/v1/pods", { name: "ids", mode: "collaboration" })).body.id;
  });
  afterAll(() => s.stop());

  it.each(["__proto__", "constructor", "hasOwnProperty"])(
    "refuses %s as a member id with a 400 and stores nothing",
    async (memberId) => {
      const before = (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount;
      const r = await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
        memberId,
        kind: "agent",
        displayName: "x",
        roles: ["implementer"],
      });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain("reserved");
      expect((await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount).toBe(before);
      const state = await api(s.url, "GET", `/api/v1/pods/${podId}/state`);
      expect(state.status).toBe(200);
    },
  );

  it.each(["impl\u0001", "line\nbreak", "rtl\u202Eevil", "esc\u001b[31m"])(
    "refuses a member id with control characters (%j)",
    async (memberId) => {
      const r = await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
        memberId,
        kind: "agent",
        displayName: "x",
        roles: [],
      });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain("control characters");
      const task = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
        type: "task.added",
        actor: "admin",
        body: { taskId: memberId, description: "x" },
      });
      expect(task.status).toBe(400);
    },
  );
});
