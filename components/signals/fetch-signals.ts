"use client";
// Fetching a pod's signals. A window is recomputed from the whole tape, and the server runs only
// two recomputations at a time: past that it answers 503 with Retry-After. That answer is not a
// failure to show at once but a "come back in 2 s": the query retries it once, after the time the
// server named, and the panel says so meanwhile.
import { ApiError, callApi } from "../shared/api-client";
import { podSignalsRoute } from "../shared/api-routes";
import type { PeriodWindow } from "./signals-period";

const DEFAULT_RETRY_AFTER_MS = 2_000;
/** However long a server asks for, a person waits at most this long before the one retry. */
const MAX_RETRY_AFTER_MS = 30_000;

export class RecomputeBusyError extends ApiError {
  constructor(
    readonly retryAfterMs: number,
    message: string,
  ) {
    super(503, message);
  }
}

/** Retry-After as ms: delta-seconds or an HTTP date; missing or nonsense is 2 s; bounded to 1–30 s. */
export function parseRetryAfter(value: string | null, nowMs: number): number {
  if (value === null || value.trim() === "") return DEFAULT_RETRY_AFTER_MS;
  const v = value.trim();
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v) - nowMs;
  if (!Number.isFinite(ms)) return DEFAULT_RETRY_AFTER_MS;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(1_000, ms));
}

/** The pod's signals, for a window (or all time). */
export async function fetchPodSignals(podId: string, window: PeriodWindow | null) {
  try {
    return await callApi(podSignalsRoute, { podId, ...window });
  } catch (e) {
    if (e instanceof ApiError && e.status === 503)
      throw new RecomputeBusyError(parseRetryAfter(e.retryAfter, Date.now()), e.message);
    throw e;
  }
}

/** Busy: once, after Retry-After. A 4xx will not change by asking again. Anything else: twice, as every query here. */
export function shouldRetrySignals(failureCount: number, error: Error): boolean {
  if (error instanceof RecomputeBusyError) return failureCount < 1;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function signalsRetryDelay(failureCount: number, error: Error): number {
  if (error instanceof RecomputeBusyError) return error.retryAfterMs;
  return Math.min(1000 * 2 ** failureCount, 30_000);
}

/** "Recomputing is busy; trying again in 2 s…" */
export const busyMessage = (e: RecomputeBusyError) =>
  `Recomputing is busy; trying again in ${Math.round(e.retryAfterMs / 1000)} s…`;
