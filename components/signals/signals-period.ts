// Which stretch of time the Signals tab counts: all time (the stored projection, live) or the last
// day, week or month (a window the server recomputes from the whole tape). The period lives in the
// URL (?tab=signals&period=7d) so a reload or a shared link keeps it.
import { NO_SIGNALS } from "./format-signals";

export const PERIODS = [
  { id: "all", label: "All time", ms: null },
  { id: "24h", label: "Last 24 hours", ms: 86_400_000 },
  { id: "7d", label: "Last 7 days", ms: 7 * 86_400_000 },
  { id: "30d", label: "Last 30 days", ms: 30 * 86_400_000 },
] as const;

export type Period = (typeof PERIODS)[number]["id"];
export type PeriodWindow = { from: string; to: string };

const MINUTE_MS = 60_000;

/** The URL's `period`; anything else (missing, mistyped, hostile) is all time. */
export function parsePeriod(value: string | null | undefined): Period {
  return PERIODS.find((p) => p.id === value)?.id ?? "all";
}

export const periodLabel = (period: Period) => PERIODS.find((p) => p.id === period)!.label;

/**
 * The window a period asks for, or null for all time. `to` is now rounded up to the next whole
 * minute and `from` the period before it, so the query (and its cache key) stays the same for a
 * minute instead of changing with every render.
 */
export function periodWindow(period: Period, nowMs: number): PeriodWindow | null {
  const ms = PERIODS.find((p) => p.id === period)!.ms;
  if (ms === null) return null;
  const toMs = Math.ceil(nowMs / MINUTE_MS) * MINUTE_MS;
  return { from: new Date(toMs - ms).toISOString(), to: new Date(toMs).toISOString() };
}

/** "Counting all time", "Counting the last 7 days". */
export const periodCaption = (period: Period) =>
  period === "all" ? "Counting all time" : `Counting the ${periodLabel(period).toLowerCase()}`;

/** The page's query string with `period` set (dropped for all time), every other parameter kept. */
export function searchWithPeriod(search: string, period: Period): string {
  const q = new URLSearchParams(search);
  if (period === "all") q.delete("period");
  else q.set("period", period);
  return q.toString();
}

/** The empty state: nothing yet, or nothing within the period. */
export const periodEmpty = (period: Period) =>
  period === "all"
    ? NO_SIGNALS
    : `Nothing to count in the ${periodLabel(period).toLowerCase()} — choose a longer period, or All time.`;
