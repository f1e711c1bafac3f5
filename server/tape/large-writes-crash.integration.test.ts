// A large append killed in the middle leaves nothing half-written: SIGKILL the server while agents
// post 1000-event batches (each stored in slices, append-events.ts), restart it, and every batch
// is there whole or not at all, every acknowledged one among them, with an intact chain.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnServer, SPAWN_ADMIN_TOKEN } from "../testing/spawn-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";

const headers = { "content-type": "application/json", authorization: `Bearer ${SPAWN_ADMIN_TOKEN}` };

describe.each(testProviders())("a large append killed mid-way on %s", (provider) => {
  let db: TestDatabase;
  beforeAll(async () => void (db = await createTestDatabase(provider)));
  afterAll(() => db.drop());

  it("keeps each 1000-event batch whole or not at all across a SIGKILL, the acknowledged ones whole", async () => {
    const first = await spawnServer({ DATABASE_URL: db.url });
    const pod = (await (
      await fetch(`${first.url}/api/v1/pods`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "large-crash", mode: "collaboration" }),
      })
    ).json()) as { id: string };
    const sent: string[][] = [];
    const acked = new Set<number>();
    let writing = true;
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        const events = Array.from({ length: 1000 }, (_, k) => ({
          id: randomUUID(),
          type: "note",
          actor: `agent-${w}`,
          body: { kind: "STATUS", text: `w${w} i${i} k${k}` },
        }));
        const batch = sent.push(events.map((e) => e.id)) - 1;
        try {
          const res = await fetch(`${first.url}/api/v1/pods/${pod.id}/events`, {
            method: "POST",
            headers,
            body: JSON.stringify({ events }),
          });
          if (res.status === 201) acked.add(batch);
        } catch {
          return; // the server died under us: this batch was never acknowledged
        }
      }
    };
    const writers = [writer(0), writer(1)];
    // Killed once a batch is in and others are under way, whatever the machine's pace.
    while (acked.size < 2) await new Promise((r) => setTimeout(r, 20));
    await first.stop("SIGKILL");
    writing = false;
    await Promise.all(writers);

    const second = await spawnServer({ DATABASE_URL: db.url });
    try {
      const stored = new Set<string>();
      for (let after = 0; ;) {
        const page = (await (
          await fetch(`${second.url}/api/v1/pods/${pod.id}/events?after=${after}&limit=1000`, { headers })
        ).json()) as { events: { id: string; seq: number }[] };
        for (const e of page.events) stored.add(e.id);
        if (page.events.length < 1000) break;
        after = page.events.at(-1)!.seq;
      }
      const kept = sent.map((ids) => ids.filter((id) => stored.has(id)).length);
      expect(kept.filter((n) => n !== 0 && n !== 1000)).toEqual([]);
      for (const batch of acked) expect(kept[batch]).toBe(1000);
      const verify = await (await fetch(`${second.url}/api/v1/pods/${pod.id}/verify`, { headers })).json();
      expect(verify).toEqual({ ok: true, checked: stored.size });
      const after = await fetch(`${second.url}/api/v1/pods/${pod.id}/events`, {
        method: "POST",
        headers,
        body: JSON.stringify({ type: "note", actor: "agent-0", body: { kind: "STATUS", text: "after" } }),
      });
      expect(after.status).toBe(201);
    } finally {
      await second.stop();
    }
  });
});
