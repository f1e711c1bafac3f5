// The cadence watchdog's pure half (docs/protocol/pods-and-modes.md#checkpoints-and-cadence).
// Watched: in an active pod, the active agent and the implementers of tasks in progress (or
// sent back with changes requested), agent members only. A watched agent is expected to
// checkpoint within the pod's cadence of the later of its last checkpoint and when it became
// watched; the watchdog (server/deadlines/) appends agent.stale when it does not.
import { CADENCE_MINUTES, type EventType } from "../events/event-schemas";
import type { AgentCadence, AppliedEvent, PodState } from "./pod-state";
import { withFields } from "./pod-state";
import { with_, without } from "./rules";
import { workingImplementers } from "./working-implementers";

export const cadenceMinutes = (s: PodState) => s.scope?.cadenceMinutes ?? CADENCE_MINUTES.default;
export const staleItemId = (agentId: string) => `stale:${agentId}`;
const fresh = (): AgentCadence => ({
  watchedSince: null,
  lastCheckpointAt: null,
  onTime: 0,
  late: 0,
  staleEpisodes: 0,
  stale: null,
});
const ms = (iso: string) => Date.parse(iso);

/** `prevTasks`: the tasks record the state's was made from, so the count of work in progress follows by the change. */
export function watchedAgents(s: PodState, prevTasks?: PodState["tasks"]): Set<string> {
  const out = new Set<string>();
  if (s.status !== "active") return out;
  const isAgent = (id: string | null): id is string =>
    !!id && Object.hasOwn(s.members, id) && s.members[id]!.kind === "agent";
  if (isAgent(s.activeAgent)) out.add(s.activeAgent);
  for (const id of Object.keys(workingImplementers(s.tasks, prevTasks))) if (isAgent(id)) out.add(id);
  return out;
}

/** Since when a watched agent's next checkpoint is due: the later of its last checkpoint and when it became watched. */
export function staleReference(c: AgentCadence): string | null {
  if (!c.watchedSince) return null;
  return c.lastCheckpointAt && ms(c.lastCheckpointAt) > ms(c.watchedSince)
    ? c.lastCheckpointAt
    : c.watchedSince;
}

/** Events that can change who is watched; after any other event the set is as it was. */
const WATCH_CHANGERS = new Set<EventType>([
  "pod.started",
  "pod.paused",
  "pod.resumed",
  "pod.closed",
  "handoff",
  "plan.imported",
  "task.updated",
  "task.review_requested",
  "review",
  "decision",
  "deadline.passed",
  "role.rotated",
]);

/** After an event: agents that became watched start their clock now; those no longer watched leave it (and any open staleness). */
export function trackWatch(before: PodState, s: PodState, e: AppliedEvent): PodState {
  // Counted after every event, so the next count follows from this one (working-implementers.ts).
  workingImplementers(s.tasks, before.tasks);
  if (!WATCH_CHANGERS.has(e.type)) return s;
  const watched = watchedAgents(s, before.tasks);
  let cadence = s.cadence;
  let inbox = s.inbox;
  for (const id of watched) {
    const c = cadence[id] ?? fresh();
    if (!c.watchedSince) cadence = with_(cadence, id, { ...c, watchedSince: e.receivedAt });
  }
  for (const [id, c] of Object.entries(cadence)) {
    if (!c.watchedSince || watched.has(id)) continue;
    cadence = with_(cadence, id, { ...c, watchedSince: null, stale: null });
    inbox = without(inbox, staleItemId(id));
  }
  return cadence === s.cadence ? s : withFields(s, { cadence, inbox });
}

/** A checkpoint: on cadence or late (when watched), and the end of an open staleness episode. */
export function recordCheckpoint(s: PodState, e: AppliedEvent): PodState {
  const m = Object.hasOwn(s.members, e.actor) ? s.members[e.actor] : undefined;
  if (m?.kind !== "agent") return s;
  const c = s.cadence[e.actor] ?? fresh();
  const ref = staleReference(c);
  const next: AgentCadence = { ...c, lastCheckpointAt: e.receivedAt, stale: null };
  if (ref) {
    // After a staleness episode the checkpoint is late whatever the clock says (the watchdog's minute may be scaled in tests).
    if (!c.stale && ms(e.receivedAt) - ms(ref) <= cadenceMinutes(s) * 60_000) next.onTime += 1;
    else next.late += 1;
  }
  return withFields(s, {
    cadence: with_(s.cadence, e.actor, next),
    inbox: without(s.inbox, staleItemId(e.actor)),
  });
}

/** What the pod list and page show: checkpoints on cadence (of all counted) and agents stale now. */
export type CadenceAdherence = {
  onTime: number;
  late: number;
  staleEpisodes: number;
  staleNow: string[];
  percent: number | null;
};
export function cadenceAdherence(s: PodState): CadenceAdherence {
  let onTime = 0,
    late = 0,
    staleEpisodes = 0;
  const staleNow: string[] = [];
  for (const [id, c] of Object.entries(s.cadence)) {
    onTime += c.onTime;
    late += c.late;
    staleEpisodes += c.staleEpisodes;
    if (c.stale) staleNow.push(id);
  }
  // A stale episode counts against adherence even before the late checkpoint that ends it.
  const counted = onTime + late + staleNow.length;
  return {
    onTime,
    late,
    staleEpisodes,
    staleNow,
    percent: counted ? Math.round((onTime / counted) * 100) : null,
  };
}

/** For the watchdog: each watched agent not stale now, with the time its next checkpoint is due by. */
export function stalenessDue(
  s: PodState,
  minuteMs = 60_000,
): { agentId: string; since: string; dueAt: number }[] {
  const out: { agentId: string; since: string; dueAt: number }[] = [];
  if (s.status !== "active") return out;
  for (const [agentId, c] of Object.entries(s.cadence)) {
    const since = staleReference(c);
    if (!since || c.stale) continue;
    out.push({ agentId, since, dueAt: ms(since) + cadenceMinutes(s) * minuteMs });
  }
  return out;
}
