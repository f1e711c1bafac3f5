// Sends what the spool holds, oldest first, before anything new: the tape then tells the session
// in the order it happened. One replayer at a time (the replay lock); entries are removed only
// once the server acknowledged them, so a replayer killed halfway sends the rest next time, and
// the server's derived ids make the repeats harmless.
import { PodwatchError } from "../sdk/errors";
import type { HookSender } from "./hook-sender";
import { acquireLock } from "./file-lock";
import type { Spool, SpoolEntry } from "./spool";

export type ReplayOutcome = "done" | Exclude<Failure, "rejected"> | "busy" | "out_of_time";
const BATCH_BYTES = 1024 * 1024;
/** A replayer killed at its hook timeout leaves its lock behind; one older than this is taken over. */
const REPLAY_STALE_MS = 15 * 60_000;
/** Time kept back for the hook's own payload after the replay. */
const RESERVE_MS = 1500;

/**
 * unreachable: no connection, or a 5xx; slow: connected, but no answer in time (not the same
 * thing to report); throttled: a 429, podwatch refusing for now — worth retrying later, but for
 * a gated call a refusal, never a reason to apply the unreachable rule.
 */
export type Failure = "unreachable" | "slow" | "throttled" | "refused" | "rejected";
export function classify(e: unknown): Failure {
  if (!(e instanceof PodwatchError)) throw e;
  if (e.status === 0) return e.code === "timeout" ? "slow" : "unreachable";
  if (e.status === 429) return "throttled";
  if (e.status >= 500) return "unreachable";
  if (e.status === 401 || e.status === 403) return "refused"; // the token: every entry would fail alike, keep them
  return "rejected"; // this entry can never succeed (400, 404, 413, 422…): drop it, counted
}

async function sendEntry(send: HookSender, entry: SpoolEntry, idleMs: number) {
  if (entry.kind === "hook") await send.hook(JSON.stringify(entry.payload), { replay: true, idleMs });
  else await send.events(entry.events, idleMs);
}

export async function replaySpool(
  spool: Spool,
  send: HookSender,
  o: { deadline: number; lockWaitMs: number },
): Promise<ReplayOutcome> {
  if (!spool.hasEntries()) return "done";
  const release = acquireLock(spool.replayLock, { waitMs: o.lockWaitMs, staleMs: REPLAY_STALE_MS });
  if (!release) return "busy";
  let released = false;
  try {
    for (;;) {
      const batch = spool.locked(() => {
        const lines = spool.readFirstLocked(BATCH_BYTES);
        // Giving up the replay lock while holding the spool's: whoever appends after this sees it free and replays.
        if (!lines.length) {
          release();
          released = true;
        }
        return lines;
      });
      if (!batch.length) return "done";
      let acked = 0;
      let rejected = 0;
      let outcome: ReplayOutcome | null = null;
      for (const { entry, bytes } of batch) {
        const left = o.deadline - Date.now();
        if (left < RESERVE_MS) {
          outcome = "out_of_time";
          break;
        }
        try {
          if (entry) await sendEntry(send, entry, Math.min(5000, left - RESERVE_MS / 2));
        } catch (e) {
          const failure = classify(e);
          if (failure !== "rejected") {
            outcome = failure;
            break;
          }
          rejected++;
        }
        if (!entry) rejected++;
        acked += bytes;
      }
      spool.locked(() => {
        spool.dropFirstLocked(acked);
        spool.countDroppedLocked(rejected);
      });
      if (outcome) return outcome;
    }
  } finally {
    if (!released) release();
  }
}
