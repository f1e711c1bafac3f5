// The typed wire for tape events, shared by server and browser. The event
// schemas themselves are the domain's (pure zod, no I/O).
export { ZEventInput, EVENT_TYPES, ROLES, NOTE_KINDS, ZRelativePath, type TEventInput, type TEvent, type EventType } from "../domain/events/event-schemas";

/** What posting an event answers: its id, seq and hash on the tape. */
export type { Ack } from "../domain/plan-append";

export const MAX_EVENTS_PER_REQUEST = 1000;

/** Envelope extras kept beside the body (seed 002 §4.2 RUN_ID, WORK_ITEM_ID, MOOD, REFERENCES). */
export type EventMeta = { taskId?: string; runId?: string; workItemId?: string; mood?: string; refs?: string[] };

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
