// What a remote MCP session sent on its SSE streams, kept so a client whose
// connection dropped can resume with Last-Event-ID and miss nothing (the
// Streamable HTTP transport's resumability). In memory and per session: it lives
// and dies with the session on this node. It is bounded in events and bytes per
// session and, through shared budgets (event-budget.ts), per pod and per server;
// the oldest go first. An id older than the oldest kept is unknown, so a client
// resuming from before a drop is refused (400) rather than replayed with a hole.
// A shared store (for several nodes) can replace it behind the SDK's EventStore interface.
import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { BudgetMember, EventBudget } from "./event-budget";

export type EventStoreBounds = { maxEvents: number; maxBytes: number };
/**
 * Per session: a tool answer is at most 256 KiB of text (agent/mcp/bounded-answers.ts), which
 * JSON escaping can double; 2 MiB keeps a few such answers for a client that reconnects.
 */
export const EVENT_STORE_BOUNDS: EventStoreBounds = { maxEvents: 500, maxBytes: 2 * 1024 * 1024 };

type Stored = { n: number; age: number; streamId: StreamId; message: JSONRPCMessage | null; bytes: number };

/** Orders messages across every store, so a shared budget drops the oldest of all first. */
let ages = 0;
/** What an entry costs beyond its message: its fields and the SSE framing. */
const ENTRY_BYTES = 64;

export class SessionEventStore implements EventStore, BudgetMember {
  /** Oldest first; `n` grows by one per event, so an id names its place. */
  private events: Stored[] = [];
  private next = 1;
  private bytes = 0;
  /** Its session ended and it left its budgets: whatever is sent still gets an id, but nothing is kept or counted. */
  private released = false;

  constructor(
    private readonly bounds: EventStoreBounds = EVENT_STORE_BOUNDS,
    private readonly budgets: EventBudget[] = [],
  ) {
    for (const b of budgets) b.join(this);
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const n = this.next++;
    // A budget it has left would count these bytes for ever: nothing there can drop them.
    if (this.released) return `${n}`;
    let bytes =
      Buffer.byteLength(JSON.stringify(message), "utf8") + Buffer.byteLength(streamId) + ENTRY_BYTES;
    let kept: JSONRPCMessage | null = message;
    if (bytes > this.bounds.maxBytes) {
      // Too large to keep within the bound: its id stays (the client that got it live may resume
      // from it), but no earlier id does, since a replay from there would skip it.
      while (this.events.length) this.dropOldest();
      [kept, bytes] = [null, ENTRY_BYTES];
    }
    this.events.push({ n, age: ++ages, streamId, message: kept, bytes });
    this.add(bytes);
    while (
      this.events.length > 1 &&
      (this.events.length > this.bounds.maxEvents || this.bytes > this.bounds.maxBytes)
    )
      this.dropOldest();
    for (const b of this.budgets) b.settle();
    return `${n}`;
  }

  /** Undefined for an id this store never gave or has already dropped: the transport then answers 400. */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.find(eventId)?.streamId;
  }

  /** An id this store gave whose following events were dropped: resuming from it would lose them. */
  dropped(eventId: EventId): boolean {
    return /^\d{1,15}$/.test(eventId) && Number(eventId) < this.next && !this.find(eventId);
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.find(lastEventId);
    if (!last) return "";
    for (const e of this.events.filter((x) => x.n > last.n && x.streamId === last.streamId)) {
      // Priming events carry no message: they only gave the client an id to resume from.
      if (e.message && Object.keys(e.message).length) await send(`${e.n}`, e.message);
    }
    return last.streamId;
  }

  get size() {
    return { events: this.events.length, bytes: this.bytes };
  }

  oldestAge() {
    return this.events[0]?.age;
  }

  dropOldest() {
    const e = this.events.shift();
    if (!e) return;
    this.add(-e.bytes);
  }

  /** The session ended: its events, and its share of the budgets, go. */
  release() {
    this.released = true;
    this.add(-this.bytes);
    this.events = [];
    for (const b of this.budgets) b.leave(this);
  }

  private add(bytes: number) {
    this.bytes += bytes;
    for (const b of this.budgets) b.bytes += bytes;
  }

  private find(eventId: EventId): Stored | undefined {
    if (!/^\d{1,15}$/.test(eventId)) return undefined;
    const n = Number(eventId);
    const first = this.events[0];
    return first && n >= first.n ? this.events[n - first.n] : undefined;
  }
}
