// Retrying a request the server may have stored without answering (it died, a proxy dropped the
// answer): safe only when the request carries its own ids, as an event does (client.ts gives
// each one before sending), so the server answers a replay with what it stored.
import { isTransient } from "./client";
import { Interrupted, PodwatchError } from "./errors";

export type RetryOptions = {
  /** Give up once this long has passed since the first try (the last error is thrown). */
  seconds?: number;
  signal?: AbortSignal;
  /** Told before each wait, e.g. to say the server is unreachable and it will try again. */
  onRetry?: (e: PodwatchError, attempt: number, waitMs: number) => void;
};

/** A server restart takes seconds to a minute: two minutes of tries, a few seconds apart at most. */
export const RETRY_SECONDS = 120;
const MAX_WAIT_MS = 5_000;

/** Runs `send` until it succeeds, fails for a reason a retry cannot fix, or the time is up. */
export async function retryTransient<T>(send: () => Promise<T>, o: RetryOptions = {}): Promise<T> {
  const until = Date.now() + (o.seconds ?? RETRY_SECONDS) * 1000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (e) {
      if (o.signal?.aborted) throw new Interrupted();
      if (!(e instanceof PodwatchError) || !isTransient(e)) throw e;
      const waitMs = Math.min(MAX_WAIT_MS, 250 * 2 ** (attempt - 1));
      if (Date.now() + waitMs > until) throw e;
      o.onRetry?.(e, attempt, waitMs);
      await sleep(waitMs, o.signal);
      if (o.signal?.aborted) throw new Interrupted();
    }
  }
}

function sleep(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
}
