import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { rawSql, testProviders } from "../testing/test-databases";

// Tampering needs the append-only trigger out of the way first: that is the point —
// only someone with DDL rights can do it, and the chain still gives them away.
const DROP_TRIGGERS = {
  sqlite: [`DROP TRIGGER event_append_only_update`],
  postgres: [`DROP TRIGGER event_append_only ON event`],
};

describe.each(testProviders())("chain verification on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(provider);
  });
  afterAll(() => s.stop());

  it("finds the first tampered event", async () => {
    const podId = (await api(s.url, "POST", "/api/v1/pods", { name: "t", mode: "collaboration" })).body.id;
    const events = Array.from({ length: 10 }, (_, i) => ({ id: randomUUID(), type: "note", actor: "a", body: { kind: "STATUS", text: `n${i}` } }));
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, { events });
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/verify`)).body).toEqual({ ok: true, checked: 10 });
    for (const sql of DROP_TRIGGERS[provider]) await rawSql(s.db, sql);
    await rawSql(s.db, `UPDATE event SET body = $1 WHERE pod_id = $2 AND seq = 7`, [JSON.stringify({ kind: "STATUS", text: "rewritten" }), podId]);
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/verify`)).body).toEqual({ ok: false, checked: 6, firstBadSeq: 7 });
  });
});
