// The one write path for the tape. Requests that arrive while a write is in
// flight are grouped into the next transaction (group commit): many small
// requests cost one commit, and nobody is acknowledged before that commit. Every door says who
// is appending, and who may append what is decided here, once (admitAppend), before anything is
// queued: a refused request writes nothing.
// A large request (an OTLP export, a 1,000-event batch) goes alone, one after
// another in arrival order, and in slices (TapeStore.appendLarge): small
// requests to other pods commit between its slices, those to its pod after it.
import { randomUUID } from "node:crypto";
import { admitAppend, type AppendIdentity } from "../domain/access/admit-append";
import { AppError, invalid } from "../domain/errors";
import type { Ack, NewEvent, StoredEvent } from "../domain/plan-append";
import type { TEvent } from "../wire/events";
import type { AppendOutcome, AppendRequest, TapeStore } from "../db/tape-store";
import { TimeSlices } from "../db/time-slices";
import type { TapeBus } from "./bus";
import { toTapeEvent } from "./to-tape-event";

/** A group's events: planning and writing 1,000 small events takes a few milliseconds. */
const MAX_GROUP_EVENTS = 1000;
/** A request with more events than this, or more bytes of bodies and meta, is a large one. */
export const LARGE_EVENTS = 100;
const LARGE_BYTES = 256 * 1024;
/** A large request's events are handed to the bus this many at a time, a turn apart. */
const PUBLISH_EVENTS = 1000;

/** `bodies`: the parsed bodies by id, so publishing does not parse back what it just serialized. */
type Pending = {
  request: AppendRequest;
  bodies: Map<string, unknown>;
  resolve: (acks: Ack[]) => void;
  reject: (e: unknown) => void;
};

/** Takes parsed events (zod output, defaults applied), appended as `as`. */
export type AppendEvents = (podId: string, inputs: TEvent[], as: AppendIdentity) => Promise<Ack[]>;
/** The write path for one caller, for a use-case that appends more than once on its behalf. */
export type AppendAsCaller = (podId: string, inputs: TEvent[]) => Promise<Ack[]>;
export const appendingAs =
  (append: AppendEvents, as: AppendIdentity): AppendAsCaller =>
  (podId, inputs) =>
    append(podId, inputs, as);

export function createAppender(store: TapeStore, bus: TapeBus): AppendEvents {
  let queue: Pending[] = [];
  let writing = false;
  /** Small requests of each pod in the group lane (queued or being written). */
  const smalls = new Map<string, { count: number; drained: (() => void)[] }>();
  /** Pods with large requests waiting or under way (how many), and the small requests held until they are done. */
  const held = new Map<string, { larges: number; waiting: Pending[] }>();
  /** Large requests take turns, first come first served. */
  let largeTurn: Promise<unknown> = Promise.resolve();

  async function drain() {
    writing = true;
    while (queue.length) {
      const group = takeGroup();
      let outcomes: AppendOutcome[];
      try {
        outcomes = await store.appendGroup(group.map((p) => p.request));
      } catch (error) {
        for (const p of group) {
          doneWithSmall(p.request.podId);
          p.reject(error);
        }
        continue;
      }
      outcomes.forEach((o, i) => {
        const p = group[i]!;
        doneWithSmall(p.request.podId);
        if (!o.ok) return p.reject(o.error);
        try {
          if (o.added.length)
            bus.emit("committed", {
              podId: p.request.podId,
              events: o.added.map((e) => toTapeEvent(e, p.bodies.get(e.id))),
            });
        } catch (error) {
          console.error(
            "podwatch: a live listener failed; the events are committed and clients will catch up",
            error,
          );
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

  function enqueue(p: Pending) {
    const podId = p.request.podId;
    const hold = held.get(podId);
    if (hold) return void hold.waiting.push(p);
    const n = smalls.get(podId) ?? { count: 0, drained: [] };
    n.count++;
    smalls.set(podId, n);
    queue.push(p);
    // Let the requests already parsed in this turn of the event loop join the group.
    if (!writing) setImmediate(() => void (writing || drain()));
  }

  function doneWithSmall(podId: string) {
    const n = smalls.get(podId);
    if (!n || --n.count > 0) return;
    smalls.delete(podId);
    for (const wake of n.drained) wake();
  }

  /** Once the pod's small requests already in the group lane are committed (or refused). */
  const smallsDrained = (podId: string) =>
    new Promise<void>((resolve) =>
      smalls.has(podId) ? smalls.get(podId)!.drained.push(resolve) : resolve(),
    );

  /** Holds the pod's small requests from the moment it arrives (before any await): they go after it. */
  async function appendLarge(
    podId: string,
    inputs: TEvent[],
    as: AppendIdentity,
    prepared?: Prepared,
  ): Promise<Ack[]> {
    const hold = held.get(podId) ?? { larges: 0, waiting: [] };
    hold.larges++;
    held.set(podId, hold);
    try {
      const slices = new TimeSlices();
      const { events, bodies } = prepared ?? (await prepare(inputs, slices));
      const turn = largeTurn.then(async () => {
        await smallsDrained(podId);
        const outcome = await store.appendLarge({ podId, events, as }, slices);
        if (!outcome.ok) throw outcome.error;
        await publish(podId, outcome.added, bodies, slices);
        return outcome.acks;
      });
      largeTurn = turn.catch(() => {});
      return await turn;
    } finally {
      if (--hold.larges === 0) {
        held.delete(podId);
        for (const p of hold.waiting) enqueue(p);
      }
    }
  }

  async function publish(
    podId: string,
    added: StoredEvent[],
    bodies: Map<string, unknown>,
    slices: TimeSlices,
  ) {
    for (let i = 0; i < added.length; i += PUBLISH_EVENTS) {
      const events = added.slice(i, i + PUBLISH_EVENTS).map((e) => toTapeEvent(e, bodies.get(e.id)));
      try {
        bus.emit("committed", { podId, events });
      } catch (error) {
        console.error(
          "podwatch: a live listener failed; the events are committed and clients will catch up",
          error,
        );
      }
      if (i + PUBLISH_EVENTS < added.length) await slices.next();
    }
  }

  return (podId, inputs, as) => {
    const verdict = admitAppend(as, podId, inputs);
    if (!verdict.ok) return Promise.reject(new AppError(verdict.status, verdict.code, verdict.message));
    if (inputs.length > LARGE_EVENTS) return appendLarge(podId, inputs, as);
    const prepared = prepareNow(inputs);
    if (prepared.bytes > LARGE_BYTES) return appendLarge(podId, inputs, as, prepared);
    const { events, bodies } = prepared;
    return new Promise<Ack[]>((resolve, reject) =>
      enqueue({ request: { podId, events, as }, bodies, resolve, reject }),
    );
  };
}

type Prepared = { events: NewEvent[]; bodies: Map<string, unknown>; bytes: number };

/** The rows' text (bodies and meta as stored and hashed); throws on an id given twice. */
const prepareNow = (inputs: TEvent[]) => checked(inputs, inputs.map(toNewEvent));
const prepare = async (inputs: TEvent[], slices: TimeSlices) =>
  checked(inputs, await slices.map(inputs, toNewEvent));

function checked(inputs: TEvent[], events: NewEvent[]): Prepared {
  const seen = new Set<string>();
  let bytes = 0;
  events.forEach((e, i) => {
    if (seen.has(e.id))
      throw invalid("duplicate event id in request", [
        { path: `events.${i}.id`, message: "appears twice in this request" },
      ]);
    seen.add(e.id);
    bytes += e.body.length + (e.meta?.length ?? 0);
  });
  return { events, bodies: new Map(events.map((e, i) => [e.id, inputs[i]!.body])), bytes };
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
