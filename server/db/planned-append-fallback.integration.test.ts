// On PostgreSQL a group is written by one call of podwatch_append_planned (postgres-store.ts). A
// database without it (dropped by hand, a restore without functions) or a role not allowed to
// call it must not stop appends: they take the locked path, which needs neither.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

const providers = testProviders().filter((p) => p === "postgres");
const note = (text: string) => ({
  id: randomUUID(),
  type: "note",
  actor: "admin",
  body: { kind: "OBSERVATION", text },
});

describe.runIf(providers.length > 0)("appends without the planned write on postgres", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer("postgres");
  });
  afterAll(() => s?.stop());

  it("go on by the locked path once the function is gone, and the chain still verifies", async () => {
    const podId = (await api(s.url, "POST", "/api/v1/pods", { name: "no function", mode: "collaboration" }))
      .body.id as string;
    for (let i = 0; i < 3; i++)
      expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, note(`before ${i}`))).status).toBe(
        201,
      );
    const client = new pg.Client({ connectionString: s.db.url });
    await client.connect();
    try {
      await client.query("DROP FUNCTION podwatch_append_planned");
    } finally {
      await client.end();
    }
    for (let i = 0; i < 3; i++)
      expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, note(`after ${i}`))).status).toBe(201);
    const verify = await api(s.url, "GET", `/api/v1/pods/${podId}/verify`);
    expect(verify.status).toBe(200);
    expect(verify.body.ok).toBe(true);
  });
});
