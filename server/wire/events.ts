// The typed wire for tape events, shared by server and browser. The event
// schemas themselves are the domain's (pure zod, no I/O).
import { z } from "zod";
import { ZEventInput } from "../domain/events/event-schemas";
import type { Ack } from "../domain/plan-append";

export {
  ZEventInput,
  EVENT_TYPES,
  ROLES,
  NOTE_KINDS,
  ZRelativePath,
  DEADLINE_MAX_MINUTES,
  type TEventInput,
  type TEvent,
  type EventType,
} from "../domain/events/event-schemas";

/** What posting an event answers: its id, seq and hash on the tape. */
export type { Ack };
/** GET /api/v1/pods/{podId}/verify: how far the chain checked out, or its first bad seq. */
export type { ChainCheck } from "../domain/hash-chain";

export const MAX_EVENTS_PER_REQUEST = 1000;

/** POST /api/v1/pods/{podId}/events takes one event, or a batch of them (all or nothing). */
export const ZEventBatch = z.object({ events: z.array(ZEventInput).min(1).max(MAX_EVENTS_PER_REQUEST) });
/** What POST /events answers: one ack per event, in order. */
export type AppendResponse = { events: Ack[] };

/** Envelope extras kept beside the body (docs/protocol/tape.md#the-envelope). */
export type EventMeta = {
  taskId?: string;
  runId?: string;
  workItemId?: string;
  mood?: string;
  refs?: string[];
  sessionId?: string;
};

/** An event as stored on the tape and sent to clients. */
export type TapeEvent = {
  id: string;
  podId: string;
  seq: number;
  type: string;
  actor: string;
  role: string | null;
  ts: string | null;
  receivedAt: string;
  body: unknown;
  meta: EventMeta | null;
  prevHash: string;
  hash: string;
};

/** GET /api/v1/pods/{podId}/events?after=: events after a seq, oldest first, and where to read on. */
export type EventsPage = { events: TapeEvent[]; nextAfter: number };
/** GET /api/v1/pods/{podId}/events with a filter or `before`: newest first, and where to search on (null at the start). */
export type EventSearchPage = { events: TapeEvent[]; nextBefore: number | null };

/** The fields every stored event has, whatever form its body and meta are read in (parsed, or the chain's text). */
export const ZStoredEventHead = z.object({
  id: z.string(),
  podId: z.string(),
  seq: z.number().int(),
  type: z.string(),
  actor: z.string(),
  role: z.string().nullable(),
  ts: z.string().nullable(),
  receivedAt: z.string(),
  prevHash: z.string(),
  hash: z.string(),
});
