// The decisions of a pod's Signals view: how many were taken in the period, by whom (the chair,
// an approver or a deadline's default, "system"), and the latest. Read from the pod's state, which
// keeps its newest POD_BOUNDS.decisions: `complete` is false when older ones may be missing.
import { POD_BOUNDS } from "../domain/pod-bounds";
import type { PodState } from "../domain/state/pod-state";
import type { DecisionsView } from "../wire/signals";
import type { Window } from "./signals-query";

/** The newest decisions shown in full. */
export const LATEST_DECISIONS = 5;

export function decisionsView(state: PodState, window: Window | null): DecisionsView {
  const inWindow = (at: string) =>
    !window || (Date.parse(at) >= window.fromMs && Date.parse(at) < window.toMs);
  const kept = state.decisions;
  const counted = kept.filter((d) => inWindow(d.at));
  // Full when the pod never dropped one, or the oldest it kept is already before the window.
  const complete =
    kept.length < POD_BOUNDS.decisions || (!!window && Date.parse(kept[0]!.at) < window.fromMs);
  const name = (by: string) => (Object.hasOwn(state.members, by) ? state.members[by]!.displayName : null);
  const roles = (by: string) => (Object.hasOwn(state.members, by) ? [...state.members[by]!.roles] : []);
  const perDecider = new Map<string, number>();
  for (const d of counted) perDecider.set(d.by, (perDecider.get(d.by) ?? 0) + 1);
  return {
    count: counted.length,
    complete,
    deciders: [...perDecider]
      .map(([by, count]) => ({ by, displayName: name(by), roles: roles(by), count }))
      .sort((a, b) => b.count - a.count || (a.by < b.by ? -1 : a.by > b.by ? 1 : 0)),
    latest: counted
      .slice(-LATEST_DECISIONS)
      .reverse()
      .map((d) => ({
        seq: d.seq,
        at: d.at,
        subject: { kind: d.subject.kind, id: d.subject.id },
        verdict: d.verdict,
        by: d.by,
        displayName: name(d.by),
        tieBreaker: d.tieBreaker,
        rationale: d.rationale,
      })),
  };
}
