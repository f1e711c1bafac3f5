// Nothing acknowledged is ever lost: SIGKILL the server while agents are
// writing, restart it, and every event that got a 201 is there, unchanged,
// with an intact chain.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServer, SPAWN_ADMIN_TOKEN } from "../testing/spawn-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";

type Ack = { id: string; seq: number; hash: string };
const auth = { authorization: `Bearer ${SPAWN_ADMIN_TOKEN}` };

describe.each(testProviders())("crash safety on %s", (provider) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
  });
  afterAll(() => db.drop());

  it("keeps every acknowledged event across a SIGKILL during ingest", async () => {
    const first = await spawnServer({ DATABASE_URL: db.url });
    const pod = (await (
      await fetch(`${first.url}/api/v1/pods`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${SPAWN_ADMIN_TOKEN}` },
        body: JSON.stringify({ name: "crash", mode: "collaboration" }),
      })
    ).json()) as { id: string };
    const acked: Ack[] = [];
    let writing = true;
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        const events = Array.from({ length: 1 + (i % 5) }, () => ({
          id: randomUUID(),
          type: "note",
          actor: `agent-${w}`,
          body: { kind: "STATUS", text: `w${w} i${i}` },
        }));
        try {
          const res = await fetch(`${first.url}/api/v1/pods/${pod.id}/events`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${SPAWN_ADMIN_TOKEN}` },
            body: JSON.stringify({ events }),
          });
          if (res.status === 201) acked.push(...((await res.json()) as { events: Ack[] }).events);
        } catch {
          return; // the server died under us: this request was never acknowledged
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    await new Promise((r) => setTimeout(r, 1500));
    await first.stop("SIGKILL");
    writing = false;
    await Promise.all(writers);
    expect(acked.length).toBeGreaterThan(100);

    const second = await spawnServer({ DATABASE_URL: db.url });
    try {
      const stored = new Map<string, Ack>();
      for (let after = 0; ;) {
        const page = (await (
          await fetch(`${second.url}/api/v1/pods/${pod.id}/events?after=${after}&limit=1000`, {
            headers: auth,
          })
        ).json()) as { events: Ack[] };
        for (const e of page.events) stored.set(e.id, { id: e.id, seq: e.seq, hash: e.hash });
        if (page.events.length < 1000) break;
        after = page.events.at(-1)!.seq;
      }
      const lost = acked.filter((a) => JSON.stringify(stored.get(a.id)) !== JSON.stringify(a));
      expect(lost).toEqual([]);
      const verify = await (
        await fetch(`${second.url}/api/v1/pods/${pod.id}/verify`, { headers: auth })
      ).json();
      expect(verify).toEqual({ ok: true, checked: stored.size });
    } finally {
      await second.stop();
    }
  });
});
