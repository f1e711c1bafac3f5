// Events a server action builds pass the API's event schema before the write path,
// which trusts what it is given: an action stores nothing an agent could not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { performOperation } from "../web/perform-operation";
import { steerOperations } from "./steer-operations";
import type { Identity } from "../domain/access/policy";

describe("server actions' events", () => {
  let s: TestServer;
  let podId: string;
  const ana: Identity = {
    kind: "user",
    userId: "u-ana",
    email: "ana@example.com",
    name: "Ana",
    isAdmin: false,
  } as Identity;
  const longId = `t${"x".repeat(198)}`; // 199 characters: a valid task id whose parts' ids ("….10") would not be
  beforeAll(async () => {
    s = await startTestServer("sqlite");
    podId = (await api(s.url, "POST", "/api/v1/pods", { name: "actions", mode: "collaboration" })).body.id;
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId: "ana@example.com",
          kind: "human",
          displayName: "Ana",
          roles: ["approver"],
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "task.added",
          actor: "admin",
          body: { taskId: longId, description: "big" },
        })
      ).status,
    ).toBe(201);
  });
  afterAll(() => s.stop());

  it("are refused by the event schema, naming what is wrong, and nothing is stored", async () => {
    const before = (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount;
    const parts = Array.from({ length: 10 }, (_, i) => `part ${i}`);
    const r = await performOperation(s.app, ana, steerOperations.splitTask, { podId, taskId: longId, parts });
    expect(r).toMatchObject({ ok: false, code: "invalid_request" });
    expect(r.ok ? "" : r.error).toContain("taskId");
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount).toBe(before);
  });

  it("that are valid are stored as the person", async () => {
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "task.added",
          actor: "admin",
          body: { taskId: "t1", description: "small" },
        })
      ).status,
    ).toBe(201);
    const r = await performOperation(s.app, ana, steerOperations.splitTask, {
      podId,
      taskId: "t1",
      parts: ["a", "b"],
    });
    expect(r.ok).toBe(true);
  });
});
