// Quiet hours: a window of local time (which may wrap past midnight) in which
// push and mail wait. Pure: given the window and a moment, when may we send?
import type { QuietHours } from "../wire/notifications";

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The local time of day at `now` in `timeZone`, in minutes (and the seconds past that minute). */
function localMinutes(now: Date, timeZone: string): { m: number; s: number } {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return { m: get("hour") * 60 + get("minute"), s: get("second") };
}

/** The moment quiet hours end if `now` falls inside them, else null (send now). */
export function quietUntil(quiet: QuietHours | null, now: Date): Date | null {
  if (!quiet) return null;
  const start = minutes(quiet.start);
  const end = minutes(quiet.end);
  const { m, s } = localMinutes(now, quiet.timeZone);
  const inside = start < end ? m >= start && m < end : m >= start || m < end;
  if (!inside) return null;
  const left = (end - m + 1440) % 1440;
  // Whole minutes to the end, less the seconds already past this one (a DST change that night may shift it by an hour).
  return new Date(now.getTime() + left * 60_000 - s * 1000 - now.getMilliseconds());
}
