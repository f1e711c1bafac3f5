// What changed in a pod's GET /state view between two of its states, as a change notice for the
// pods' live views (server/realtime/state-deltas.ts). The reducers build a new object for what an
// event changes and keep the others as they were, so "changed" is a reference comparison: a
// record that no event touched costs a pointer compare (records share what an event did not
// touch, and changedKeys walks only what differs), and an event costs the browser the tasks,
// inbox cards and lists it changed, not the pod's state again.
import type { PodState } from "../domain/state/pod-state";
import { failingGates } from "../domain/state/reduce-evidence";
import { cadenceAdherence } from "../domain/state/cadence";
import { changedKeys } from "../domain/state/shared-record";
import type { DeltaList, PodStateDelta, PodStateView } from "../wire/views";
import { inboxCards } from "./inbox-context";
import { presentTask, presentUsage } from "./present-pod-state";

type Lists = PodStateDelta["lists"];

/** The items of `next` that are not the very ones of `prev` (presented), and the keys gone. */
function diffRecord<T, V>(
  prev: Record<string, T>,
  next: Record<string, T>,
  present: (value: T, key: string) => V,
) {
  const { put, drop } = changedKeys(prev, next);
  return put.length || drop.length ? { put: put.map((key) => present(next[key]!, key)), drop } : undefined;
}

/** An append-only list as what came after the old one, or null when it was not only appended to. */
function tail<T>(prev: T[], next: T[]) {
  if (prev === next) return undefined;
  if (next.length < prev.length || prev.some((item, i) => next[i] !== item)) return null;
  return { from: prev.length, items: next.slice(prev.length) };
}

const own = <T>(record: Record<string, T>, key: string) =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * The tasks whose gates may read differently (failingGates): a bundle's verdict never changes and
 * a task cites only bundles that exist, so beyond the tasks that changed themselves only a
 * workcell's proof moves a gate, that of the workcell's task. Anything else (never made by the
 * reducers) and every task is compared.
 */
function gateSuspects(prev: PodState, next: PodState): string[] | "all" {
  const evidence = changedKeys(prev.evidence, next.evidence);
  const workcells = changedKeys(prev.workcells, next.workcells);
  if (evidence.drop.length || workcells.drop.length) return "all";
  for (const id of evidence.put) {
    const [was, now] = [own(prev.evidence, id), next.evidence[id]!];
    if (was && (was.passed !== now.passed || was.failedCommands !== now.failedCommands)) return "all";
  }
  const out: string[] = [];
  for (const id of workcells.put) {
    const [was, now] = [own(prev.workcells, id), next.workcells[id]!];
    if (was && was.taskId !== now.taskId) return "all";
    if (now.taskId) out.push(now.taskId);
  }
  return out;
}

/** Tasks whose own record changed, or whose gates did (their evidence or workcells changed). */
function boardDelta(prev: PodState, next: PodState) {
  const { put, drop } = changedKeys(prev.tasks, next.tasks);
  const changed = new Set(put);
  const suspects = gateSuspects(prev, next);
  for (const id of suspects === "all" ? next.taskOrder : suspects) {
    if (
      !changed.has(id) &&
      Object.hasOwn(next.tasks, id) &&
      failingGates(prev, id).join("\n") !== failingGates(next, id).join("\n")
    )
      changed.add(id);
  }
  return changed.size || drop.length
    ? { put: [...changed].map((id) => presentTask(next, id)), drop }
    : undefined;
}

/** Inbox cards carry context from the whole state (the task, its evidence, the job…): compared as JSON, they are few. */
function inboxDelta(prev: PodState, next: PodState) {
  const before = new Map(inboxCards(prev).map((card) => [card.id, JSON.stringify(card)]));
  const cards = inboxCards(next);
  const put = cards.filter((card) => before.get(card.id) !== JSON.stringify(card));
  const drop = [...before.keys()].filter((id) => !Object.hasOwn(next.inbox, id));
  return put.length || drop.length ? { put, drop } : undefined;
}

/** Whether the inbox's cards (as GET /inbox shows them, with their context) differ. */
export const inboxCardsChanged = (prev: PodState, next: PodState) =>
  viewMayDiffer(prev, next) && inboxDelta(prev, next) !== undefined;

/** Whether anything but the seq and the signals (which the view does not show) changed. */
const viewMayDiffer = (prev: PodState, next: PodState) =>
  (Object.keys(next) as (keyof PodState)[]).some(
    (key) => key !== "seq" && key !== "signals" && prev[key] !== next[key],
  );

export function podStateDelta(prev: PodState, next: PodState): PodStateDelta {
  const delta: PodStateDelta = { fromSeq: prev.seq, seq: next.seq, set: {}, lists: {}, tails: {} };
  if (!viewMayDiffer(prev, next)) return delta;
  const lists: Lists = {
    board: boardDelta(prev, next),
    inbox: inboxDelta(prev, next),
    escalations: diffRecord(prev.escalations, next.escalations, (v) => v),
    evidence: diffRecord(prev.evidence, next.evidence, (v) => v),
    runs: diffRecord(prev.runs, next.runs, (v) => v),
    jobs: diffRecord(prev.jobs, next.jobs, (v) => v),
    workcells: diffRecord(prev.workcells, next.workcells, (v) => v),
    sessions: diffRecord(prev.sessions, next.sessions, (v) => v),
    members: diffRecord(prev.members, next.members, (v) => v),
  };
  for (const key of Object.keys(lists) as DeltaList[])
    if (lists[key]) (delta.lists as Record<string, unknown>)[key] = lists[key];
  for (const key of ["roleHistory", "handoffs", "decisions"] as const) {
    const t = tail<unknown>(prev[key], next[key]);
    if (t === null) delta.set = { ...delta.set, [key]: next[key] };
    else if (t) (delta.tails as Record<string, unknown>)[key] = t;
  }
  if (prev.taskOrder !== next.taskOrder) delta.order = next.taskOrder;
  const set = delta.set as Partial<PodStateView>;
  if (prev.status !== next.status) set.status = next.status;
  if (prev.scope !== next.scope) set.scope = next.scope;
  if (prev.activeAgent !== next.activeAgent) set.activeAgent = next.activeAgent;
  if (prev.budgets !== next.budgets) set.budgets = next.budgets;
  if (prev.lastCheckpoint !== next.lastCheckpoint) set.lastCheckpoint = next.lastCheckpoint;
  if (prev.planBlocks !== next.planBlocks) set.planBlocks = Object.values(next.planBlocks);
  if (prev.usage !== next.usage) set.usage = presentUsage(next);
  if (prev.policies !== next.policies || prev.recordPrompts !== next.recordPrompts)
    set.toolPolicies = { policies: next.policies, recordPrompts: next.recordPrompts };
  if (prev.cadence !== next.cadence) {
    const cadence = cadenceAdherence(next);
    if (JSON.stringify(cadence) !== JSON.stringify(cadenceAdherence(prev))) set.cadence = cadence;
  }
  return delta;
}

/** True when the notice carries nothing but the new seq. */
export const isEmptyDelta = (d: PodStateDelta) =>
  !Object.keys(d.set).length && !Object.keys(d.lists).length && !Object.keys(d.tails).length && !d.order;
