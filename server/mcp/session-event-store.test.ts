import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { SessionEventStore } from "./session-event-store";

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
});
