// Where a session stands right now, for the control room's "Now": the one rule, pure (the clock
// is an argument). Needs you wins over everything (a person can move it); then a session that ended
// today; then silence past the threshold; then whether a turn is open.
import type { AgentSession } from "../state/pod-state";

/** The groups of "Now", in the order a person reads them. */
export const NOW_STATES = ["needs-you", "working", "idle", "stale", "ended-today"] as const;
export type NowState = (typeof NOW_STATES)[number];

/** How long a session that has not ended may stay silent before it reads as stale. */
export const STALE_AFTER_MS = 10 * 60_000;
/** A tool under way (a build, a test run) says nothing until it ends: it may run this long first. */
export const TOOL_STALE_AFTER_MS = 60 * 60_000;

/** Midnight UTC of the day `now` is in: "today" is the server's UTC day. */
export const startOfUtcDay = (now: number) => now - (now % 86_400_000);

export type NowClock = { now: number; staleAfterMs?: number };
/** `since`: when the session entered this state (a state's age is `now - since`). */
export type NowClass = { state: NowState; since: string };

/**
 * `needsYou`: the oldest item the person may answer for this session's agent, if any. null: the
 * session is not "now" (it ended before today).
 */
export function classifySession(
  s: AgentSession,
  needsYou: { at: string } | null,
  clock: NowClock,
): NowClass | null {
  if (needsYou) return { state: "needs-you", since: needsYou.at };
  if (s.ended) {
    return Date.parse(s.ended.at) >= startOfUtcDay(clock.now)
      ? { state: "ended-today", since: s.ended.at }
      : null;
  }
  const limit = clock.staleAfterMs ?? STALE_AFTER_MS;
  const toolRunning = s.turn?.open === true && s.turn.tool !== null;
  if (clock.now - Date.parse(s.last.at) > (toolRunning ? Math.max(limit, TOOL_STALE_AFTER_MS) : limit))
    return { state: "stale", since: s.last.at };
  if (s.turn?.open) return { state: "working", since: s.turn.since };
  return { state: "idle", since: s.turn?.since ?? s.last.at };
}
