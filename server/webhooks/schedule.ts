// When a failed delivery is tried again (after the first attempt): 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h, 10 h — a little over a day — then it has failed. An
// endpoint with only failures for a day is disabled. `scale` (a test knob,
// webhookTimeScale in server/test-knobs.ts) shrinks both.
const S = 1000;
const M = 60 * S;
const H = 60 * M;
export const RETRY_DELAYS_MS = [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H] as const;
export const DISABLE_AFTER_MS = 24 * H;

/** The wait before the next attempt after `failed` failures in a row (1 = the first attempt failed), or null: give up. */
export function retryDelay(failed: number, scale: number): number | null {
  const d = RETRY_DELAYS_MS[failed - 1];
  return d === undefined ? null : Math.max(1, Math.round(d * scale));
}
