// The one replay loop: bring a state up to a seq by applying the tape's events
// after it, page by page. Used by the stores (a stored projection brought up to
// the head: synchronously inside a SQLite transaction, with awaits on
// PostgreSQL) and by time travel (the empty state replayed up to `atSeq`). The
// loop is a generator that asks for pages and gets them back, so the same steps
// run under a synchronous and an asynchronous reader.
import type { StoredEvent } from "../plan-append";
import { replay } from "./apply-event";
import type { PodState } from "./pod-state";
import { toAppliedEvent } from "./stored-event";

/** A page of the tape to read: up to `limit` events with seq > `afterSeq`, in seq order. */
export type PageRead = { afterSeq: number; limit: number };
export type ReadPage = (afterSeq: number, limit: number) => StoredEvent[];
export type ReadPageAsync = (afterSeq: number, limit: number) => Promise<StoredEvent[]>;

export const CATCH_UP_PAGE = 2000;

/** Yields the pages it needs and returns `state` replayed up to `toSeq`, or as far as the tape goes. */
export function* catchUp(
  state: PodState,
  toSeq: number,
  pageSize = CATCH_UP_PAGE,
): Generator<PageRead, PodState, StoredEvent[]> {
  while (state.seq < toSeq) {
    const page = yield { afterSeq: state.seq, limit: Math.min(pageSize, toSeq - state.seq) };
    if (!page.length) break;
    state = replay(page.map(toAppliedEvent), state);
  }
  return state;
}

export function catchUpSync(state: PodState, toSeq: number, read: ReadPage): PodState {
  const steps = catchUp(state, toSeq);
  let step = steps.next();
  while (!step.done) step = steps.next(read(step.value.afterSeq, step.value.limit));
  return step.value;
}

export async function catchUpAsync(state: PodState, toSeq: number, read: ReadPageAsync): Promise<PodState> {
  const steps = catchUp(state, toSeq);
  let step = steps.next();
  while (!step.done) step = steps.next(await read(step.value.afterSeq, step.value.limit));
  return step.value;
}
