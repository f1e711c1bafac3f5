// Upgrading keeps every pod usable: a pod whose stored state an older
// version built (without the fields added since) and whose tape the current rules no longer
// replay is served from that state, filled in; a tape an older version accepted with a member
// called podwatch replays. Against the real server on both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../start-server";
import { agentPod, api, startServerOn } from "../testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";
import { PROJECTION_VERSION } from "../domain/state/pod-state";
import { TEST_WRITER } from "../testing/test-writer";

describe.each(testProviders())("upgrading stored pod states on %s", (provider) => {
  let db: TestDatabase;
  let server: RunningServer | null = null;
  const start = async (env: Record<string, string> = {}) => (server = await startServerOn(db, env));
  const stop = async () => (await server?.close(), (server = null));
  beforeAll(async () => void (db = await createTestDatabase(provider)));
  afterAll(async () => (await stop(), await db?.drop()));

  /** Rewrites the pod's stored state as an older version stored it: version `v`, without `drop`. */
  async function storeAsOlder(app: RunningServer["app"], podId: string, drop: string[]) {
    const row = await app.store.prisma.podState.findUniqueOrThrow({ where: { podId } });
    const state = JSON.parse(row.state) as Record<string, unknown>;
    for (const key of drop) delete state[key];
    await app.store.prisma.podState.update({
      where: { podId },
      data: { state: JSON.stringify({ ...state, v: PROJECTION_VERSION - 1 }) },
    });
  }

  it("a pod an older version stored, whose tape the current rules refuse, still serves its state, the pod list and appends", async () => {
    // Under the test-only shorter minimum, an escalation with a deadline a second ahead is accepted:
    // the real minimum (a minute) refuses it when the tape is replayed, as a rule added since would.
    const older = await start({ PODWATCH_DEADLINE_MIN_MS: "100" });
    const { podId, tokens } = await agentPod(older.url, "upgrade", { impl: "implementer" });
    const other = await agentPod(older.url, "upgrade-other", { impl: "implementer" });
    const agent = { token: tokens["impl"]! };
    const asked = await api(
      older.url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      {
        type: "escalation",
        actor: "impl",
        body: {
          escalationId: "e1",
          kind: "intent",
          question: "Ship?",
          deadline: { at: new Date(Date.now() + 1000).toISOString(), then: "remind" },
        },
      },
      agent,
    );
    expect(asked.status).toBe(201);
    await storeAsOlder(older.app, podId, ["cadence"]); // the cadence watchdog's record came with version 3
    await stop();

    const { url, app } = await start();
    const state = await api(url, "GET", `/api/v1/pods/${podId}/state`);
    expect(state.status).toBe(200);
    expect(state.body.escalations.map((e: { escalationId: string }) => e.escalationId)).toEqual(["e1"]);
    const pods = await api(url, "GET", "/api/v1/pods");
    expect(pods.status).toBe(200);
    expect(pods.body.pods.map((p: { id: string }) => p.id)).toEqual(
      expect.arrayContaining([podId, other.podId]),
    );
    const checkpoint = await api(
      url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      { type: "checkpoint", actor: "impl", body: { completed: ["a"], next: [], blocked: [] } },
      agent,
    );
    expect(checkpoint.status).toBe(201);
    // The other pod, and the scheduler's scans, are unaffected.
    expect(
      (
        await api(
          url,
          "POST",
          `/api/v1/pods/${other.podId}/events`,
          { type: "checkpoint", actor: "impl", body: { completed: ["b"], next: [], blocked: [] } },
          { token: other.tokens["impl"]! },
        )
      ).status,
    ).toBe(201);
    const stored = JSON.parse(
      (await app.store.prisma.podState.findUniqueOrThrow({ where: { podId } })).state,
    );
    expect(stored).toMatchObject({ v: PROJECTION_VERSION, cadence: expect.any(Object) });
    await stop();
  });

  it("a member called podwatch, accepted by an older version, replays", async () => {
    const { url, app } = await start();
    const { podId } = await agentPod(url, "reserved-later", { impl: "implementer" });
    // Server-side, as an older version's door let it through: the rule lives at the doors now.
    await app.append(
      podId,
      [
        {
          type: "member.joined",
          actor: "admin",
          body: { memberId: "podwatch", kind: "agent", displayName: "Old bot" },
        },
      ],
      TEST_WRITER,
    );
    // Stored without its members: only a replay of the tape (not the stored state kept as it was) brings them back.
    await storeAsOlder(app, podId, ["members"]);
    await stop();
    const again = await start();
    const state = await api(again.url, "GET", `/api/v1/pods/${podId}/state`);
    expect(state.status).toBe(200);
    expect(state.body.members.map((m: { memberId: string }) => m.memberId).sort()).toEqual([
      "impl",
      "podwatch",
    ]);
    expect(
      (
        await api(again.url, "POST", `/api/v1/pods/${podId}/events`, {
          type: "checkpoint",
          actor: "impl",
          body: { completed: ["a"], next: [], blocked: [] },
        })
      ).status,
    ).toBe(201);
    const stored = JSON.parse(
      (await again.app.store.prisma.podState.findUniqueOrThrow({ where: { podId } })).state,
    );
    expect(stored.v).toBe(PROJECTION_VERSION);
    await stop();
  });
});
