// What a remote MCP session sent on its SSE streams, kept so a client whose
// connection dropped can resume with Last-Event-ID and miss nothing (the
// Streamable HTTP transport's resumability). In memory and per session: it lives
// and dies with the session on this node, and it is bounded, oldest first, so a
// chatty session cannot grow it without end. A shared store (for several nodes)
// can replace it behind the SDK's EventStore interface.
import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export type EventStoreBounds = { maxEvents: number; maxBytes: number };
export const EVENT_STORE_BOUNDS: EventStoreBounds = { maxEvents: 500, maxBytes: 4 * 1024 * 1024 };

type Stored = { n: number; streamId: StreamId; message: JSONRPCMessage; bytes: number };

export class SessionEventStore implements EventStore {
  /** Oldest first; `n` grows by one per event, so an id names its place. */
  private events: Stored[] = [];
  private next = 1;
  private bytes = 0;

  constructor(private readonly bounds: EventStoreBounds = EVENT_STORE_BOUNDS) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const bytes = JSON.stringify(message).length + streamId.length;
    const stored = { n: this.next++, streamId, message, bytes };
    this.events.push(stored);
    this.bytes += bytes;
    while (
      this.events.length > 1 &&
      (this.events.length > this.bounds.maxEvents || this.bytes > this.bounds.maxBytes)
    )
      this.bytes -= this.events.shift()!.bytes;
    return `${stored.n}`;
  }

  /** Undefined for an id this store never gave or has already dropped: the transport then answers 400. */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.find(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.find(lastEventId);
    if (!last) return "";
    for (const e of this.events.filter((x) => x.n > last.n && x.streamId === last.streamId)) {
      // Priming events carry no message: they only gave the client an id to resume from.
      if (Object.keys(e.message).length) await send(`${e.n}`, e.message);
    }
    return last.streamId;
  }

  get size() {
    return { events: this.events.length, bytes: this.bytes };
  }

  private find(eventId: EventId): Stored | undefined {
    if (!/^\d{1,15}$/.test(eventId)) return undefined;
    const n = Number(eventId);
    const first = this.events[0];
    return first && n >= first.n ? this.events[n - first.n] : undefined;
  }
}
