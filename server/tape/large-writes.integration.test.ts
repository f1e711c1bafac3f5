// Large writes go in slices (append-events.ts, TapeStore.appendLarge) and stay all-or-nothing:
// a refused batch leaves nothing, an accepted one is all there with an intact chain, and small
// appends to another pod (and to the same pod) are answered while a large one is under way.
// Against the real server on both databases; no timing is asserted, only what happened first.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../start-server";
import { agentPod, api, startServerOn } from "../testing/test-server";
import { createTestDatabase, rawSql, testProviders, type TestDatabase } from "../testing/test-databases";
import type { CommittedBatch } from "./bus";
import { verifyChain } from "./verify-chain";
import type { TEvent } from "../wire/events";
import { TEST_WRITER } from "../testing/test-writer";

const note = (actor: string, i: number): TEvent =>
  ({
    id: randomUUID(),
    type: "note",
    actor,
    body: { kind: "OBSERVATION", text: `large write ${i}` },
  }) as TEvent;

describe.each(testProviders())("large writes in slices on %s", (provider) => {
  let db: TestDatabase;
  let server: RunningServer | null = null;
  const start = async () => (server = await startServerOn(db));
  beforeAll(async () => {
    db = await createTestDatabase(provider);
    await start();
  });
  afterAll(async () => (await server?.close(), await db?.drop()));

  const tape = async (podId: string) => {
    const out: { seq: number; id: string }[] = [];
    for (;;) {
      const page = (
        await api<{ events: { seq: number; id: string }[] }>(
          server!.url,
          "GET",
          `/api/v1/pods/${podId}/events?after=${out.at(-1)?.seq ?? 0}&limit=1000`,
        )
      ).body.events;
      if (!page.length) return out;
      out.push(...page);
    }
  };

  it("a 1000-event POST refused by its last event writes nothing; the same batch fixed is stored whole, in order, with an intact chain", async () => {
    const { podId, tokens } = await agentPod(server!.url, "large-all-or-nothing", { impl: "implementer" });
    const other = await agentPod(server!.url, "large-other", { impl: "implementer" });
    const taken = note("impl", -1);
    expect(
      (
        await api(server!.url, "POST", `/api/v1/pods/${other.podId}/events`, taken, {
          token: other.tokens.impl!,
        })
      ).status,
    ).toBe(201);
    const before = await tape(podId);
    const events = Array.from({ length: 1000 }, (_, i) => note("impl", i));
    const refused = await api(
      server!.url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      { events: [...events.slice(0, 999), { ...taken, actor: "impl" }] },
      { token: tokens.impl! },
    );
    expect(refused.status).toBe(409);
    expect(await tape(podId)).toEqual(before);
    expect((await server!.app.store.readHead(podId))!.seq).toBe(before.at(-1)!.seq);

    const stored = await api<{ events: { id: string; seq: number }[] }>(
      server!.url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      { events },
      { token: tokens.impl! },
    );
    expect(stored.status).toBe(201);
    const after = await tape(podId);
    expect(after.slice(before.length).map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(after.map((e) => e.seq)).toEqual(after.map((_, i) => i + 1));
    expect(await verifyChain(server!.app.store, podId, { full: true })).toMatchObject({ ok: true });
    // The same batch again is a replay: the same acks, nothing added.
    const again = await api<{ events: { id: string; seq: number }[] }>(
      server!.url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      { events },
      { token: tokens.impl! },
    );
    expect(again.body.events).toEqual(stored.body.events);
    expect((await tape(podId)).length).toBe(after.length);
  });

  it("while 20,000 events are being appended to one pod, a small append to another pod is committed first, and one to the same pod right after it", async () => {
    const { app } = server!;
    const big = await agentPod(server!.url, "large-big", { impl: "implementer" });
    const small = await agentPod(server!.url, "large-small", { impl: "implementer" });
    const order: string[] = [];
    const heard = (b: CommittedBatch) =>
      order.push(`${b.podId === big.podId ? "big" : "small"}:${b.events[0]!.seq}`);
    app.bus.on("committed", heard);
    try {
      const head = (await app.store.readHead(big.podId))!.seq;
      const events = Array.from({ length: 20_000 }, (_, i) => note("impl", i));
      let largeDone = false;
      const large = app.append(big.podId, events, TEST_WRITER).then((acks) => ((largeDone = true), acks));
      // Sent once the large one is under way (its first slice has run): the other pod's does not wait for it.
      await new Promise((resolve) => setImmediate(resolve));
      const other = await app.append(small.podId, [note("impl", 0)], TEST_WRITER);
      expect(largeDone).toBe(false);
      const same = app.append(big.podId, [note("impl", 20_000)], TEST_WRITER);
      const [acks, [sameAck]] = await Promise.all([large, same]);
      expect(acks.map((a) => a.seq)).toEqual(events.map((_, i) => head + 1 + i));
      expect(sameAck!.seq).toBe(head + 20_001);
      expect(order.indexOf(`small:${other[0]!.seq}`)).toBeLessThan(order.indexOf(`big:${head + 1}`));
      expect(order.indexOf(`big:${head + 20_001}`)).toBe(order.length - 1);
      expect(await verifyChain(app.store, big.podId, { full: true })).toMatchObject({ ok: true });
    } finally {
      app.bus.off("committed", heard);
    }
  });

  if (provider === "sqlite") {
    it("rows a large append left past its pod's head (killed before it published) are never read, and are gone when the store opens", async () => {
      const { podId, tokens } = await agentPod(server!.url, "large-crash", { impl: "implementer" });
      const head = (await server!.app.store.readHead(podId))!;
      const before = await tape(podId);
      // What a killed large append leaves: rows after the head that the head never moved over.
      for (const seq of [head.seq + 1, head.seq + 2]) {
        const values = [randomUUID(), podId, seq, new Date().toISOString(), head.hash, "f".repeat(64)];
        await rawSql(
          db,
          `INSERT INTO event (id, pod_id, seq, type, actor, role, ts, received_at, body, meta, prev_hash, hash) VALUES ($1, $2, $3, 'note', 'impl', NULL, NULL, $4, '{}', NULL, $5, $6)`,
          values,
        );
      }
      expect(await tape(podId)).toEqual(before);
      expect(
        (await api<{ events: unknown[] }>(server!.url, "GET", `/api/v1/pods/${podId}/events?type=note`)).body
          .events,
      ).toEqual([]);
      // Published events stay append-only.
      await expect(
        rawSql(db, `DELETE FROM event WHERE pod_id = $1 AND seq = $2`, [podId, head.seq]),
      ).rejects.toThrow(/append-only/);
      await server!.close();
      await start();
      expect(
        await rawSql(db, `SELECT seq FROM event WHERE pod_id = $1 AND seq > $2`, [podId, head.seq]),
      ).toEqual([]);
      const res = await api<{ events: { seq: number }[] }>(
        server!.url,
        "POST",
        `/api/v1/pods/${podId}/events`,
        note("impl", 1),
        { token: tokens.impl! },
      );
      expect(res.body.events[0]!.seq).toBe(head.seq + 1);
      expect(await verifyChain(server!.app.store, podId, { full: true })).toMatchObject({ ok: true });
    });
  }
});
