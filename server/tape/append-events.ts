// The one write path for the tape. Requests that arrive while a write is in
// flight are grouped into the next transaction (group commit): many small
// requests cost one commit, and nobody is acknowledged before that commit. Every door says who
// is appending, and who may append what is decided here, once (admitAppend), before anything is
// queued: a refused request writes nothing.
import { randomUUID } from "node:crypto";
import { admitAppend, type AppendIdentity } from "../domain/access/admit-append";
import { AppError, invalid } from "../domain/errors";
import type { Ack, NewEvent } from "../domain/plan-append";
import type { TEvent } from "../wire/events";
import type { AppendOutcome, AppendRequest, TapeStore } from "../db/tape-store";
import type { TapeBus } from "./bus";
import { toTapeEvent } from "./to-tape-event";

const MAX_GROUP_EVENTS = 5000;

/** `bodies`: the parsed bodies by id, so publishing does not parse back what it just serialized. */
type Pending = { request: AppendRequest; bodies: Map<string, unknown>; resolve: (acks: Ack[]) => void; reject: (e: unknown) => void };

/** Takes parsed events (zod output, defaults applied), appended as `as`. */
export type AppendEvents = (podId: string, inputs: TEvent[], as: AppendIdentity) => Promise<Ack[]>;
/** The write path for one caller, for a use-case that appends more than once on its behalf. */
export type AppendAsCaller = (podId: string, inputs: TEvent[]) => Promise<Ack[]>;
export const appendingAs = (append: AppendEvents, as: AppendIdentity): AppendAsCaller => (podId, inputs) => append(podId, inputs, as);

export function createAppender(store: TapeStore, bus: TapeBus): AppendEvents {
  let queue: Pending[] = [];
  let writing = false;

  async function drain() {
    writing = true;
    while (queue.length) {
      const group = takeGroup();
      let outcomes: AppendOutcome[];
      try {
        outcomes = await store.appendGroup(group.map((p) => p.request));
      } catch (error) {
        for (const p of group) p.reject(error);
        continue;
      }
      outcomes.forEach((o, i) => {
        const p = group[i]!;
        if (!o.ok) return p.reject(o.error);
        try {
          if (o.added.length) bus.emit("committed", { podId: p.request.podId, events: o.added.map((e) => toTapeEvent(e, p.bodies.get(e.id))) });
        } catch (error) {
          console.error("podwatch: a live listener failed; the events are committed and clients will catch up", error);
        }
        p.resolve(o.acks);
      });
    }
    writing = false;
  }

  function takeGroup(): Pending[] {
    let n = 0;
    let i = 0;
    while (i < queue.length && (i === 0 || n + queue[i]!.request.events.length <= MAX_GROUP_EVENTS)) {
      n += queue[i]!.request.events.length;
      i++;
    }
    const group = queue.slice(0, i);
    queue = queue.slice(i);
    return group;
  }

  return (podId, inputs, as) => {
    const verdict = admitAppend(as, podId, inputs);
    if (!verdict.ok) return Promise.reject(new AppError(verdict.status, verdict.code, verdict.message));
    const events = inputs.map(toNewEvent);
    const bodies = new Map(events.map((e, i) => [e.id, inputs[i]!.body]));
    const seen = new Set<string>();
    events.forEach((e, i) => {
      if (seen.has(e.id)) throw invalid("duplicate event id in request", [{ path: `events.${i}.id`, message: "appears twice in this request" }]);
      seen.add(e.id);
    });
    return new Promise<Ack[]>((resolve, reject) => {
      queue.push({ request: { podId, events, as }, bodies, resolve, reject });
      // Let the requests already parsed in this turn of the event loop join the group.
      if (!writing) setImmediate(() => void (writing || drain()));
    });
  };
}

const META_KEYS = ["taskId", "runId", "workItemId", "mood", "refs", "sessionId"] as const;

function toNewEvent(e: TEvent): NewEvent {
  const id = e.id ?? randomUUID();
  const meta = META_KEYS.filter((k) => e[k] !== undefined);
  return {
    id,
    type: e.type,
    actor: e.actor,
    role: e.role ?? null,
    ts: e.ts ?? null,
    body: JSON.stringify(e.body),
    meta: meta.length ? JSON.stringify(Object.fromEntries(meta.map((k) => [k, e[k]]))) : null,
    event: { ...e, id },
  };
}
