// Plans a group of append requests that will be committed in one transaction:
// each request is all-or-nothing on its own (a refused request adds nothing),
// its new events must pass the pod's rules in order, and later requests build
// on what earlier ones in the group added.
import { admitInState, type AppendIdentity } from "./access/admit-append";
import { AppError, notFound } from "./errors";
import {
  planAppendSteps,
  runSteps,
  type Ack,
  type Head,
  type NewEvent,
  type StoredEvent,
  type StoredRef,
} from "./plan-append";
import { applyEvent } from "./state/apply-event";
import { admitEvent } from "./state/admit-event";
import type { AppliedEvent, PodState } from "./state/pod-state";
import { inboxChanges, type InboxChanges } from "./state/inbox-changes";

/** `as`: who appends (admitted by the write path already; here what the pod's state says of them). */
export type GroupRequest = { podId: string; events: NewEvent[]; as: AppendIdentity };
export type GroupOutcome = { ok: true; acks: Ack[]; added: StoredEvent[] } | { ok: false; error: AppError };
/** One per pod the group appended to: the seqs it added and how its inbox changed (the outbox row). */
export type OutboxEntry = InboxChanges & { podId: string; fromSeq: number; toSeq: number };
export type GroupPlan = {
  outcomes: GroupOutcome[];
  rows: StoredEvent[];
  heads: Map<string, Head>;
  states: Map<string, PodState>;
  touched: string[];
  outbox: OutboxEntry[];
  receivedAt: string;
};
export type PodSnapshot = { head: Head; state: PodState };

/** `pods` holds the head and state of every existing pod named in the group. */
export function planGroup(
  requests: GroupRequest[],
  pods: ReadonlyMap<string, PodSnapshot>,
  existing: ReadonlyMap<string, StoredRef>,
  receivedAt: string,
): GroupPlan {
  return runSteps(planGroupSteps(requests, pods, existing, receivedAt));
}

/**
 * The same plan, one step per event hashed and per event folded: a large request is planned in
 * slices, its caller giving the event loop back between steps (server/db/time-slices.ts).
 */
export function* planGroupSteps(
  requests: GroupRequest[],
  pods: ReadonlyMap<string, PodSnapshot>,
  existing: ReadonlyMap<string, StoredRef>,
  receivedAt: string,
): Generator<void, GroupPlan> {
  const heads = new Map([...pods].map(([id, p]) => [id, p.head]));
  const states = new Map([...pods].map(([id, p]) => [id, p.state]));
  const known = new Map(existing);
  const rows: StoredEvent[] = [];
  const touched = new Set<string>();
  const outcomes: GroupOutcome[] = [];
  for (const r of requests) outcomes.push(yield* planRequest(r));
  function* planRequest(r: GroupRequest): Generator<void, GroupOutcome> {
    const head = heads.get(r.podId);
    if (!head) return { ok: false, error: notFound("pod") };
    const caller = admitInState(r.as, r.podId, states.get(r.podId)!);
    if (!caller.ok) return { ok: false, error: new AppError(caller.status, caller.code, caller.message) };
    try {
      const plan = yield* planAppendSteps(r.podId, head, r.events, known, receivedAt);
      const inputs = new Map(r.events.map((e) => [e.id, e.event]));
      let state = states.get(r.podId)!;
      for (const row of plan.rows) {
        yield;
        // Copied, then given its place: a literal spread with added fields costs several copies.
        const applied = { ...inputs.get(row.id)! } as AppliedEvent;
        applied.seq = row.seq;
        applied.receivedAt = row.receivedAt;
        const before = state;
        state = applyEvent(state, applied);
        admitEvent(before, state, applied); // what the pod accumulates is bounded here, not on replay
      }
      heads.set(r.podId, plan.head);
      states.set(r.podId, state);
      for (const row of plan.rows) known.set(row.id, row);
      if (plan.rows.length) touched.add(r.podId);
      rows.push(...plan.rows);
      return { ok: true, acks: plan.acks, added: plan.rows };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    }
  }
  const outbox = [...touched].map((podId): OutboxEntry => {
    const before = pods.get(podId)!;
    return {
      podId,
      fromSeq: before.head.seq + 1,
      toSeq: heads.get(podId)!.seq,
      ...inboxChanges(before.state, states.get(podId)!),
    };
  });
  return { outcomes, rows, heads, states, touched: [...touched], outbox, receivedAt };
}
