// Pure planning of one append request: which inputs are replays of stored
// events (idempotent by id), which are new, and the seq/hash each new one gets.
import { conflict } from "./errors";
import { hashEvent, type ChainedEvent } from "./hash-chain";
import type { TEvent } from "./events/event-schemas";

export type NewEvent = {
  id: string;
  type: string;
  actor: string;
  role: string | null;
  ts: string | null;
  /** JSON text, stored and hashed exactly as is. */
  body: string;
  meta: string | null;
  /** The parsed event, for the domain rules. */
  event: TEvent;
};
export type Head = { seq: number; hash: string };
export type StoredRef = { id: string; podId: string; seq: number; hash: string; type: string; actor: string };
export type StoredEvent = ChainedEvent & { hash: string };
export type Ack = { id: string; seq: number; hash: string };

export type AppendPlan = { rows: StoredEvent[]; head: Head; acks: Ack[] };

export function planAppend(
  podId: string,
  head: Head,
  inputs: NewEvent[],
  existing: ReadonlyMap<string, StoredRef>,
  receivedAt: string,
): AppendPlan {
  return runSteps(planAppendSteps(podId, head, inputs, existing, receivedAt));
}

/** The same plan, one step per input: a caller may pause between steps (a large request, planned in slices). */
export function* planAppendSteps(
  podId: string,
  head: Head,
  inputs: NewEvent[],
  existing: ReadonlyMap<string, StoredRef>,
  receivedAt: string,
): Generator<void, AppendPlan> {
  const rows: StoredEvent[] = [];
  const acks: Ack[] = [];
  let { seq, hash } = head;
  for (const input of inputs) {
    yield;
    const stored = existing.get(input.id);
    if (stored) {
      if (stored.podId !== podId)
        throw conflict("event_id_taken", `event id ${input.id} is already used by another pod`);
      // A replay is the same speaker saying the same kind of thing: another member's event under
      // this id (e.g. one that guessed a hook's derived id) must not make this one vanish as "stored".
      if (stored.type !== input.type || stored.actor !== input.actor)
        throw conflict("event_id_taken", `event id ${input.id} is already used by another event of this pod`);
      acks.push({ id: stored.id, seq: stored.seq, hash: stored.hash });
      continue;
    }
    seq += 1;
    const { id, type, actor, role, ts, body, meta } = input;
    // One object per row, its hash filled in once computed (hashEvent reads only the chained fields).
    const row: StoredEvent = {
      id,
      type,
      actor,
      role,
      ts,
      body,
      meta,
      podId,
      seq,
      receivedAt,
      prevHash: hash,
      hash: "",
    };
    hash = hashEvent(row);
    row.hash = hash;
    rows.push(row);
    acks.push({ id: input.id, seq, hash });
  }
  return { rows, head: { seq, hash }, acks };
}

/** Runs a planning generator to its end in one go. */
export function runSteps<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
