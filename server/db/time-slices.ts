// Long work in slices: a large write (an OTLP export of 20,000 events, a 1,000-event batch) is
// decoded, checked, hashed, folded and stored by one caller that gives the event loop back once
// it has run SLICE_MS, so no other request waits more than about that long behind it. Here, the
// lowest layer that does such work (the stores), so every layer above can use it.
//
// Slices of all such work take turns, one per turn of the event loop, first come first served:
// two exports decoding and a third being stored do not add their slices up in one turn (each
// setImmediate callback of a turn runs before the loop reads the next request), and each goes on
// at the same pace.
import { performance } from "node:perf_hooks";

/** How long one slice runs before the loop is given back (the loop's budget is ~20 ms). */
export const SLICE_MS = 8;

const waiting: (() => void)[] = [];
let scheduled = false;

function schedule() {
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    // The one whose turn it is runs its slice right after this callback (a resolved promise);
    // the rest wait for later turns, after the loop has read what arrived meanwhile.
    waiting.shift()?.();
    if (waiting.length) schedule();
  });
}

/** Resolves on a later turn of the event loop, when it is this caller's turn among all sliced work. */
const nextTurn = () =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    schedule();
  });

export class TimeSlices {
  private started = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Whether this slice has run its time. */
  due(): boolean {
    return performance.now() - this.started >= this.sliceMs;
  }

  /** Gives the loop back (timers and I/O run first, and the other sliced work's turns), then starts a new slice. */
  async next(): Promise<void> {
    await nextTurn();
    this.started = performance.now();
  }

  /** `next()` only when the slice is due: call it between steps of any size below a slice. */
  async pause(): Promise<void> {
    if (this.due()) await this.next();
  }

  /** Runs a planning generator (one step per `yield`) to its end, pausing between steps. */
  async run<T>(steps: Generator<void, T>): Promise<T> {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (this.due()) await this.next();
    }
  }

  /** `items.map(fn)`, pausing between items. */
  async map<T, R>(items: readonly T[], fn: (item: T, index: number) => R): Promise<R[]> {
    const out: R[] = [];
    for (let i = 0; i < items.length; i++) {
      out.push(fn(items[i]!, i));
      if (this.due()) await this.next();
    }
    return out;
  }
}
