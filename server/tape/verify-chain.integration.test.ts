import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { rawSql, testProviders } from "../testing/test-databases";
import { hashEvent, type ChainedEvent } from "../domain/hash-chain";

// Tampering needs the append-only trigger out of the way first: that is the point —
// only someone with DDL rights can do it, and the chain still gives them away.
const DROP_TRIGGERS = {
  sqlite: [`DROP TRIGGER IF EXISTS event_append_only_update`],
  postgres: [`DROP TRIGGER IF EXISTS event_append_only ON event`],
};

const notes = (n: number) => ({
  events: Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    type: "note",
    actor: "a",
    body: { kind: "STATUS", text: `n${i}` },
  })),
});
const rewritten = JSON.stringify({ kind: "STATUS", text: "rewritten" });

describe.each(testProviders())("chain verification on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(provider);
  });
  afterAll(() => s.stop());

  async function podWith(n: number) {
    const podId: string = (await api(s.url, "POST", "/api/v1/pods", { name: "t", mode: "collaboration" }))
      .body.id;
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, notes(n));
    return podId;
  }
  const verify = async (podId: string, query = "") =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/verify${query}`)).body;
  const tamper = async (podId: string, seq: number) => {
    for (const sql of DROP_TRIGGERS[provider]) await rawSql(s.db, sql);
    await rawSql(s.db, `UPDATE event SET body = $1 WHERE pod_id = $2 AND seq = $3`, [rewritten, podId, seq]);
  };

  it("finds the first tampered event", async () => {
    const podId = await podWith(10);
    expect(await verify(podId)).toEqual({ ok: true, checked: 10 });
    await tamper(podId, 7);
    expect(await verify(podId, "?full=1")).toEqual({ ok: false, checked: 6, firstBadSeq: 7 });
  });

  it("re-hashes only events appended since the last verification, unless asked for a full walk", async () => {
    const podId = await podWith(10);
    expect(await verify(podId)).toEqual({ ok: true, checked: 10 });
    await tamper(podId, 3);
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, notes(5));
    // Seq 1..10 were verified before and are not re-hashed: the cheap walk covers 11..15 only.
    expect(await verify(podId)).toEqual({ ok: true, checked: 15 });
    expect(await verify(podId, "?full=1")).toEqual({ ok: false, checked: 2, firstBadSeq: 3 });
    // A change among events not verified yet is found by the cheap walk.
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, notes(5));
    await tamper(podId, 18);
    expect(await verify(podId)).toEqual({ ok: false, checked: 17, firstBadSeq: 18 });
  });

  it("catches a chain re-hashed behind its back at the last seq it had verified", async () => {
    const podId = await podWith(10);
    expect(await verify(podId)).toEqual({ ok: true, checked: 10 });
    // An attacker who recomputes every hash after the change (and the pod's head) leaves a consistent chain…
    for (const sql of DROP_TRIGGERS[provider]) await rawSql(s.db, sql);
    const rows = (await s.app.store.readEvents(podId, 6, 100)) as (ChainedEvent & { hash: string })[];
    let prevHash = rows[0]!.prevHash;
    for (const row of rows) {
      const e = {
        ...row,
        seq: Number(row.seq),
        prevHash,
        body: Number(row.seq) === 7 ? rewritten : row.body,
      };
      prevHash = hashEvent(e);
      await rawSql(s.db, `UPDATE event SET body = $1, prev_hash = $2, hash = $3 WHERE id = $4`, [
        e.body,
        e.prevHash,
        prevHash,
        e.id,
      ]);
    }
    await rawSql(s.db, `UPDATE pod SET head_hash = $1 WHERE id = $2`, [prevHash, podId]);
    // …which a fresh walk cannot tell apart, but this server remembers the hash it verified at seq 10.
    expect(await verify(podId)).toEqual({ ok: false, checked: 9, firstBadSeq: 10 });
    expect(await verify(podId, "?full=1")).toEqual({ ok: false, checked: 9, firstBadSeq: 10 });
  });

  it("reports a vanished tail", async () => {
    const podId = await podWith(5);
    expect(await verify(podId)).toEqual({ ok: true, checked: 5 });
    for (const sql of [
      ...DROP_TRIGGERS[provider],
      provider === "sqlite" ? `DROP TRIGGER IF EXISTS event_append_only_delete` : `SELECT 1`,
    ])
      await rawSql(s.db, sql);
    await rawSql(s.db, `DELETE FROM event WHERE pod_id = $1 AND seq >= 4`, [podId]);
    expect(await verify(podId)).toEqual({ ok: false, checked: 3, firstBadSeq: 4 });
  });
});
