// Recomputing signals (as of a seq, over a window, a signed record) replays a whole tape: cheap
// once, a lever when fired many times at once. A server runs at most MAX_RECOMPUTATIONS at a
// time, whoever asks; beyond that it answers 503 with Retry-After rather than queueing work.
import { AppError } from "../domain/errors";
import type { TapeStore } from "../db/tape-store";

export const MAX_RECOMPUTATIONS = 2;

const running = new WeakMap<TapeStore, { n: number }>();

export class RecomputeBusy extends AppError {
  constructor() {
    super(503, "recompute_busy", "the server is already recomputing signals for others; try again in a moment");
  }
}

/** Runs `work` in one of the server's recomputation slots, or throws RecomputeBusy. */
export async function recompute<T>(store: TapeStore, work: () => Promise<T>): Promise<T> {
  let slots = running.get(store);
  if (!slots) running.set(store, (slots = { n: 0 }));
  if (slots.n >= MAX_RECOMPUTATIONS) throw new RecomputeBusy();
  slots.n++;
  try {
    return await work();
  } finally {
    slots.n--;
  }
}
