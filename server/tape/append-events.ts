// The one write path for the tape. Requests that arrive while a write is in
// flight are grouped into the next transaction (group commit): many small
// requests cost one commit, and nobody is acknowledged before that commit.
import { randomUUID } from "node:crypto";
import { invalid } from "../domain/errors";
import type { Ack, NewEvent } from "../domain/plan-append";
import type { TEvent } from "../wire/events";
import type { AppendOutcome, AppendRequest, TapeStore } from "../db/tape-store";
import type { TapeBus } from "./bus";
import { toTapeEvent } from "./to-tape-event";

const MAX_GROUP_EVENTS = 5000;

/** `bodies`: the parsed bodies by id, so publishing does not parse back what it just serialized. */
type Pending = { request: AppendRequest; bodies: Map<string, unknown>; resolve: (acks: Ack[]) => void; reject: (e: unknown) => void };

/** Takes parsed events (zod output, defaults applied). */
export type AppendEvents = (podId: string, inputs: TEvent[]) => Promise<Ack[]>;

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

  return (podId, inputs) => {
    const events = inputs.map(toNewEvent);
    const bodies = new Map(events.map((e, i) => [e.id, inputs[i]!.body]));
    const seen = new Set<string>();
    events.forEach((e, i) => {
      if (seen.has(e.id)) throw invalid("duplicate event id in request", [{ path: `events.${i}.id`, message: "appears twice in this request" }]);
      seen.add(e.id);
    });
    return new Promise<Ack[]>((resolve, reject) => {
      queue.push({ request: { podId, events }, bodies, resolve, reject });
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
