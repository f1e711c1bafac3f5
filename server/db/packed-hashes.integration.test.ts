// SQLite keeps a chain hash as its 32 bytes; every reader still sees lowercase hex, and a tape
// whose older rows hold hex text (written before) reads and verifies as one chain.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { rawSql } from "../testing/test-databases";

describe("chain hashes on SQLite", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer("sqlite");
  });
  afterAll(() => s.stop());

  const note = (text: string) => ({
    id: randomUUID(),
    type: "note",
    actor: "a",
    body: { kind: "STATUS", text },
  });

  it("are stored as 32-byte blobs and read back as the hex the append acknowledged", async () => {
    const podId: string = (await api(s.url, "POST", "/api/v1/pods", { name: "t", mode: "collaboration" }))
      .body.id;
    const acks = (
      await api(s.url, "POST", `/api/v1/pods/${podId}/events`, { events: [note("a"), note("b")] })
    ).body.events as { seq: number; hash: string }[];
    const stored = (await rawSql(
      s.db,
      `SELECT typeof(hash) AS t, length(hash) AS n, typeof(prev_hash) AS pt FROM event WHERE pod_id = $1 ORDER BY seq`,
      [podId],
    )) as { t: string; n: number; pt: string }[];
    expect(stored).toEqual([
      { t: "blob", n: 32, pt: "blob" },
      { t: "blob", n: 32, pt: "blob" },
    ]);
    const events = await s.app.store.readEvents(podId, 0, 10);
    expect(events.map((e) => e.hash)).toEqual(acks.map((a) => a.hash));
    expect(events[0]!.prevHash).toBe("0".repeat(64));
    expect(events[1]!.prevHash).toBe(acks[0]!.hash);
  });

  it("read hex text rows (a tape written before) alongside blob rows, and the chain verifies across them", async () => {
    const podId: string = (await api(s.url, "POST", "/api/v1/pods", { name: "t", mode: "collaboration" }))
      .body.id;
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, { events: [note("old")] });
    // What an older version wrote: the same hashes as text.
    await rawSql(s.db, `DROP TRIGGER IF EXISTS event_append_only_update`);
    await rawSql(
      s.db,
      `UPDATE event SET hash = lower(hex(hash)), prev_hash = lower(hex(prev_hash)) WHERE pod_id = $1`,
      [podId],
    );
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, { events: [note("new")] });
    const kinds = (await rawSql(s.db, `SELECT typeof(hash) AS t FROM event WHERE pod_id = $1 ORDER BY seq`, [
      podId,
    ])) as { t: string }[];
    expect(kinds.map((k) => k.t)).toEqual(["text", "blob"]);
    const events = await s.app.store.readEvents(podId, 0, 10);
    expect(events[1]!.prevHash).toBe(events[0]!.hash);
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/verify?full=1`)).body).toEqual({
      ok: true,
      checked: 2,
    });
  });
});
