import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { SessionEventStore } from "./session-event-store";
import { EventBudget } from "./event-budget";

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { n },
});
async function replay(store: SessionEventStore, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const streamId = await store.replayEventsAfter(after, { send: async (id, m) => void sent.push([id, m]) });
  return { streamId, sent };
}

describe("SessionEventStore", () => {
  it("replays what came after an id on that id's stream only, without priming events", async () => {
    const store = new SessionEventStore();
    const primed = await store.storeEvent("a", {} as JSONRPCMessage);
    const a1 = await store.storeEvent("a", note(1));
    await store.storeEvent("b", note(2));
    const a3 = await store.storeEvent("a", note(3));
    expect(await store.getStreamIdForEventId(a1)).toBe("a");
    expect(await replay(store, primed)).toEqual({
      streamId: "a",
      sent: [
        [a1, note(1)],
        [a3, note(3)],
      ],
    });
    expect(await replay(store, a3)).toEqual({ streamId: "a", sent: [] });
  });

  it("keeps the newest events within its bounds, and does not know ids it dropped or never gave", async () => {
    const store = new SessionEventStore({ maxEvents: 3, maxBytes: 10_000 });
    const ids = [];
    for (let n = 0; n < 5; n++) ids.push(await store.storeEvent("s", note(n)));
    expect(store.size.events).toBe(3);
    expect(await store.getStreamIdForEventId(ids[1]!)).toBeUndefined();
    expect((await replay(store, ids[2]!)).sent.map(([, m]) => m)).toEqual([note(3), note(4)]);
    for (const bad of ["99", "-1", "1e3", "x", ""])
      expect(await store.getStreamIdForEventId(bad), bad).toBeUndefined();
    expect(await replay(store, ids[0]!)).toEqual({ streamId: "", sent: [] });

    const small = new SessionEventStore({ maxEvents: 100, maxBytes: 200 });
    for (let n = 0; n < 10; n++) await small.storeEvent("s", note(n));
    expect(small.size.bytes).toBeLessThanOrEqual(200);
    expect(small.size.events).toBeGreaterThan(0);
  });

  it("does not keep a message larger than its bound, and no id from before it, so no replay skips it", async () => {
    const store = new SessionEventStore({ maxEvents: 100, maxBytes: 1000 });
    const before = await store.storeEvent("s", note(1));
    const huge: JSONRPCMessage = {
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { pad: "x".repeat(5000) },
    };
    const big = await store.storeEvent("s", huge);
    expect(store.size.bytes).toBeLessThanOrEqual(1000); // not even while it is the newest
    const after = await store.storeEvent("s", note(2));
    expect(store.size.bytes).toBeLessThanOrEqual(1000);
    expect(store.dropped(before)).toBe(true);
    expect(await store.getStreamIdForEventId(before)).toBeUndefined();
    // The client that got it live resumes from it and gets what followed.
    expect((await replay(store, big)).sent).toEqual([[after, note(2)]]);
    expect([store.dropped(big), store.dropped("99"), store.dropped("x")]).toEqual([false, false, false]);
  });

  it("keeps a shared budget across stores, dropping the oldest message of any of them first", async () => {
    const pod = new EventBudget(3000);
    const msg = (n: number): JSONRPCMessage => ({ ...note(n), params: { n, pad: "y".repeat(400) } });
    const [a, b] = [new SessionEventStore(undefined, [pod]), new SessionEventStore(undefined, [pod])];
    const first = await a.storeEvent("s", msg(0));
    const ids: string[] = [];
    for (let n = 1; n < 20; n++) ids.push(await (n % 2 ? b : a).storeEvent("s", msg(n)));
    expect(pod.bytes).toBeLessThanOrEqual(3000);
    expect(pod.bytes).toBe(a.size.bytes + b.size.bytes);
    expect(a.size.events + b.size.events).toBeGreaterThan(2);
    expect(a.dropped(first)).toBe(true);
    // The newest of each store are still there to resume from.
    expect([a.dropped(ids.at(-2)!), b.dropped(ids.at(-1)!)]).toEqual([false, false]);
    a.release();
    expect(pod.bytes).toBe(b.size.bytes);
    b.release();
    expect([pod.bytes, pod.empty]).toEqual([0, true]);
  });

  it("keeps and counts nothing once released, so the budgets it left are not charged for ever", async () => {
    const [pod, server] = [new EventBudget(10_000), new EventBudget(100_000)];
    const store = new SessionEventStore(undefined, [pod, server]);
    const first = await store.storeEvent("s", note(1));
    store.release();
    // A message the transport sends as the session closes still gets an id, and is not kept.
    const late = await store.storeEvent("s", note(2));
    expect(late).not.toBe(first);
    expect(store.size).toEqual({ events: 0, bytes: 0 });
    expect([pod.bytes, server.bytes, pod.empty, server.empty]).toEqual([0, 0, true, true]);
    expect(await replay(store, late)).toEqual({ streamId: "", sent: [] });
  });
});
