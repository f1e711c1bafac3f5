// Who implements work in progress (or sent back with changes requested), as a count per
// implementer: the cadence watch asks after every task event, and walking the whole plan for it
// cost the pod's size per event. Counts are memoised per tasks record: records are never changed
// in place, so a record's counts never change either, and those of the record an event made are
// derived from the previous record's by the tasks that differ (changedKeys), not recounted.
import type { Task } from "./pod-state";
import { changedKeys, withKey, withoutKey } from "./shared-record";

type Counts = Record<string, number>;
const memo = new WeakMap<Record<string, Task>, Counts>();

const working = (t: Task | undefined): t is Task & { implementer: string } =>
  !!t && !!t.implementer && (t.status === "in_progress" || t.status === "changes_requested");
const own = (tasks: Record<string, Task>, id: string) => (Object.hasOwn(tasks, id) ? tasks[id] : undefined);

function count(counts: Counts, task: Task | undefined, by: 1 | -1): Counts {
  if (!working(task)) return counts;
  const n = (Object.hasOwn(counts, task.implementer) ? counts[task.implementer]! : 0) + by;
  return n > 0 ? withKey(counts, task.implementer, n) : withoutKey(counts, task.implementer);
}

/** Implementer → how many of `tasks` it is working on (none: absent). `prev`: the record `tasks` was made from, if known. */
export function workingImplementers(tasks: Record<string, Task>, prev?: Record<string, Task>): Counts {
  const known = memo.get(tasks);
  if (known) return known;
  const base = prev && memo.get(prev);
  let counts: Counts;
  if (prev && base) {
    counts = base;
    const { put, drop } = changedKeys(prev, tasks);
    for (const id of [...put, ...drop]) counts = count(count(counts, own(prev, id), -1), own(tasks, id), 1);
  } else {
    const built: Counts = {};
    for (const t of Object.values(tasks))
      if (working(t)) built[t.implementer] = (built[t.implementer] ?? 0) + 1;
    counts = built;
  }
  memo.set(tasks, counts);
  return counts;
}
