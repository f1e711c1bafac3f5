// The pod's stored state is a snapshot, not rewritten by every commit: it is written with a pod's
// first events, then once the pod is PODWATCH_SNAPSHOT_EVERY events past it (after the commit; a
// large state's waits longer, see snapshotLag), and at shutdown. Whatever it lags, the state read
// is the tape's replay: from the cache, from the snapshot and its tail (readStoredState, what a
// restart loads), and after a restart. Both databases.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunningServer } from "../start-server";
import { agentPod, api, startServerOn } from "../testing/test-server";
import { createTestDatabase, rawSql, testProviders, type TestDatabase } from "../testing/test-databases";
import { eventually } from "../testing/eventually";
import { replay } from "../domain/state/apply-event";
import { emptyPodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import { SNAPSHOT_CHARS_PER_EVENT } from "./pod-state-cache";

const EVERY = 20;

describe.each(testProviders())("state snapshots on %s", (provider) => {
  let db: TestDatabase;
  let server: RunningServer | null = null;
  const start = async () => (server = await startServerOn(db, { PODWATCH_SNAPSHOT_EVERY: String(EVERY) }));
  beforeAll(async () => void (db = await createTestDatabase(provider)));
  afterAll(async () => (await server?.close(), await db?.drop()));

  const storedRow = async (podId: string) =>
    (await rawSql(db, `SELECT seq FROM pod_state WHERE pod_id = $1`, [podId]))[0] as
      { seq: number } | undefined;
  const note = (i: number) => ({ type: "note", actor: "impl", body: { kind: "STATUS", text: `note ${i}` } });

  async function replayOfTape(url: string, podId: string) {
    const tape = (await api(url, "GET", `/api/v1/pods/${podId}/events?limit=1000`)).body.events;
    const rows = tape.map((e: any) => ({
      ...e,
      body: JSON.stringify(e.body),
      meta: e.meta ? JSON.stringify(e.meta) : null,
    }));
    return replay(rows.map(toAppliedEvent), emptyPodState());
  }

  it("is written every so many events, not per commit, and the state read is always the tape's replay", async () => {
    const { url, app } = await start();
    const { podId, tokens } = await agentPod(url, "snapshots", { impl: "implementer" });
    const agent = { token: tokens["impl"]! };
    const first = (await storedRow(podId))!;
    for (let i = 0; i < EVERY - 2; i++)
      expect((await api(url, "POST", `/api/v1/pods/${podId}/events`, note(i), agent)).status).toBe(201);
    // Under EVERY events since: the row has not been rewritten.
    expect((await storedRow(podId))!.seq).toBe(first.seq);
    const stored = await app.store.readStoredState(podId);
    expect(JSON.parse(stored!.state)).toEqual(await replayOfTape(url, podId));
    // A small state: its snapshot lags EVERY events, not more (snapshotLag).
    expect(stored!.state.length).toBeLessThan(EVERY * SNAPSHOT_CHARS_PER_EVENT);
    for (let i = 0; i < 2 * EVERY; i++)
      expect((await api(url, "POST", `/api/v1/pods/${podId}/events`, note(100 + i), agent)).status).toBe(201);
    const head = (await api(url, "GET", `/api/v1/pods/${podId}/state`)).body.seq as number;
    const later = await eventually(
      () => storedRow(podId),
      (r) => !!r && r.seq > first.seq,
      "a later snapshot",
    );
    expect(head - later!.seq).toBeLessThan(EVERY);
    expect(later!.seq).toBeLessThan(head);
    expect(JSON.parse((await app.store.readStoredState(podId))!.state)).toEqual(
      await replayOfTape(url, podId),
    );
    expect((await api(url, "GET", `/api/v1/pods/${podId}/state`)).body.seq).toBe(head);
    await server!.close();
    server = null;
    // At shutdown the lagging snapshot was brought to the head: the restart loads it without a tail.
    expect((await storedRow(podId))!.seq).toBe(head);
    const again = await start();
    expect((await api(again.url, "GET", `/api/v1/pods/${podId}/state`)).body.seq).toBe(head);
    expect((await api(again.url, "POST", `/api/v1/pods/${podId}/events`, note(999), agent)).status).toBe(201);
    expect(JSON.parse((await again.app.store.readStoredState(podId))!.state)).toEqual(
      await replayOfTape(again.url, podId),
    );
  });

  it("at shutdown, is written after the one under way, and none is tried once the store is closed", async () => {
    const { url } = await start();
    const { podId, tokens } = await agentPod(url, "snapshots-closing", { impl: "implementer" });
    const agent = { token: tokens["impl"]! };
    // The last append makes a snapshot due; the shutdown starts while it may still be written.
    for (let i = 0; i <= EVERY; i++)
      expect((await api(url, "POST", `/api/v1/pods/${podId}/events`, note(i), agent)).status).toBe(201);
    const head = (await api(url, "GET", `/api/v1/pods/${podId}/state`)).body.seq as number;
    const errors: unknown[][] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((...args) => void errors.push(args));
    try {
      await server!.close();
      server = null;
    } finally {
      spy.mockRestore();
    }
    expect(errors.filter((args) => String(args[0]).includes("snapshot"))).toEqual([]);
    expect((await storedRow(podId))!.seq).toBe(head);
  });
});
