// The demo simulator is an SDK user: it plays its pod through the public API
// with one agent token per member, and a full episode lands without a refusal.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { api, startTestServer, type TestServer } from "../../server/testing/test-server";
import { startDemo } from "./start-demo";

describe("the demo simulator over the SDK", () => {
  let s: TestServer;
  beforeAll(async () => (s = await startTestServer("sqlite")));
  afterAll(() => s.stop());

  it("sets up its pod and plays an episode, every agent speaking with its own token", async () => {
    const errors = vi.spyOn(console, "error");
    const demo = await startDemo({
      baseUrl: s.url,
      intervalMs: 1,
      adminKey: s.app.access.internalKey,
      watchers: ["owner@example.com"],
    });
    try {
      await expect
        .poll(
          async () =>
            (await api(s.url, "GET", `/api/v1/pods/${demo.podId}/events?type=decision&limit=5`)).body.events
              .length,
          { timeout: 40_000, interval: 200 },
        )
        .toBeGreaterThanOrEqual(2); // both decisions of episode 1: the whole episode has played
    } finally {
      demo.stop();
    }
    expect(errors).not.toHaveBeenCalled();
    const state = (await api(s.url, "GET", `/api/v1/pods/${demo.podId}/state`)).body;
    expect(state.members.map((m: { memberId: string }) => m.memberId)).toEqual(
      expect.arrayContaining([
        "orchestrator-1",
        "implementer-1",
        "reviewer-1",
        "chair-1",
        "owner@example.com",
      ]),
    );
    const { tokens } = (await api(s.url, "GET", `/api/v1/pods/${demo.podId}/tokens`)).body;
    expect(tokens.filter((t: { revokedAt: string | null }) => !t.revokedAt)).toHaveLength(6);
    const { events } = (await api(s.url, "GET", `/api/v1/pods/${demo.podId}/events?after=0&limit=1000`)).body;
    const types = new Set(events.map((e: { type: string }) => e.type));
    for (const t of [
      "pod.scope_agreed",
      "plan.imported",
      "workcell.opened",
      "workcell.proof",
      "evidence.bundle",
      "escalation",
      "job.delivered",
      "decision",
    ])
      expect(types, t).toContain(t);
  });
});
