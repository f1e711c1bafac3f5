// Turns of the event loop shared by every sliced task of the process. A task that gives the loop
// back with setImmediate of its own resumes in the next check phase beside every other such task,
// so three replays of 8 ms slices would still hold the loop for 24 ms between two polls. Here all
// of them wait on one immediate, and a turn's budget is counted from when it fired: the first task
// to resume spends it, and each other one does MIN_SHARE_MS of work before it waits for the next
// turn (so none starves while another runs long).
import { performance } from "node:perf_hooks";

/** What each task resumed in a turn may do even when the turn's budget is spent. */
export const MIN_SHARE_MS = 1;

let turnStart = performance.now();
let next: Promise<void> | null = null;

function nextTurn(): Promise<void> {
  next ??= new Promise((resolve) =>
    setImmediate(() => {
      next = null;
      turnStart = performance.now();
      resolve();
    }),
  );
  return next;
}

/** One task's slices: `due()` when this turn has had `ms` of sliced work (and this task its share), `rest()` to wait for the next turn. */
export function loopSlices(ms: number) {
  let resumed = performance.now();
  return {
    due: () => {
      const now = performance.now();
      return now - turnStart >= ms && now - resumed >= Math.min(ms, MIN_SHARE_MS);
    },
    rest: async () => {
      await nextTurn();
      resumed = performance.now();
    },
  };
}
