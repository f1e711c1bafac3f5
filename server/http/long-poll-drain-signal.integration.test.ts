// GET /events ties each request to the node's drain signal (a drain answers long-polls at
// once) and unties it when the request ends: the drain's signal lives as long as the process,
// so anything a request leaves on it is kept forever (AbortSignal.any left one per request).
import { getEventListeners } from "node:events";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

/** What hangs on a signal: its abort listeners, and (Node 20) the signals made from it by AbortSignal.any. */
function attached(signal: AbortSignal): number {
  const dependants = Object.getOwnPropertySymbols(signal).find((s) => s.description === "kDependantSignals");
  const set = dependants
    ? (signal as unknown as Record<symbol, Set<unknown> | undefined>)[dependants]
    : undefined;
  return getEventListeners(signal, "abort").length + (set?.size ?? 0);
}

describe.each(testProviders())("long-polls and the drain signal on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(provider);
  });
  afterAll(async () => s?.stop());

  it("leave nothing attached to the drain's signal once they are answered", async () => {
    const podId: string = (await api(s.url, "POST", "/api/v1/pods", { name: "polls", mode: "collaboration" }))
      .body.id;
    const before = attached(s.app.drain.signal);
    for (let i = 0; i < 5; i++)
      expect((await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&wait=0`)).status).toBe(200);
    // And long-polls woken by an append.
    const polls = [1, 2, 3].map(() => api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&wait=20`));
    await new Promise((r) => setTimeout(r, 200));
    expect(attached(s.app.drain.signal)).toBeGreaterThan(before); // they wait on it now
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      id: randomUUID(),
      type: "note",
      actor: "impl",
      body: { kind: "STATUS", text: "wake" },
    });
    for (const r of await Promise.all(polls)) expect(r.body.events).toHaveLength(1);
    expect(attached(s.app.drain.signal)).toBe(before);
  });
});
