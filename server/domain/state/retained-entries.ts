// What a pod retains for good: its tasks, evidence bundles, escalations, runs, jobs and workcells
// are never removed from the state, so their size is counted as events add or change their
// entries (state.retained, in characters of JSON) and bounded as a whole (pod-bounds.ts). Each
// event names the entries it may touch; their size before and after it is the change, so the
// cost is the entries', never the pod's.
import type { AppliedEvent, PodState } from "./pod-state";

export type Retained = "tasks" | "evidence" | "escalations" | "runs" | "jobs" | "workcells";
export type EntryRef = [Retained, string];

const str = (v: unknown) => (typeof v === "string" ? v : undefined);
const field = (e: AppliedEvent, name: string) => str((e.body as Record<string, unknown>)[name]);
const ids = (e: AppliedEvent, name: string) => {
  const v = (e.body as Record<string, unknown>)[name];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
};
const refs = (key: Retained, list: (string | undefined)[]): EntryRef[] =>
  list.filter((id) => id !== undefined).map((id) => [key, id]);
/** The bundles an event links (linkEvidence grows their links). */
const cited = (e: AppliedEvent) => refs("evidence", ids(e, "evidenceIds"));
const subject = (e: AppliedEvent): EntryRef[] => {
  const s = (e.body as { subject?: { kind?: unknown; id?: unknown } }).subject;
  const id = str(s?.id);
  const keys: Record<string, Retained> = { task: "tasks", job: "jobs", escalation: "escalations" };
  const key = typeof s?.kind === "string" && Object.hasOwn(keys, s.kind) ? keys[s.kind] : null;
  return key && id ? [[key, id]] : [];
};

type Touches = (before: PodState, after: PodState, e: AppliedEvent) => EntryRef[];
const TOUCHES: Partial<Record<AppliedEvent["type"], Touches>> = {
  "plan.imported": (b, a) => refs("tasks", a.taskOrder.slice(b.taskOrder.length)),
  "task.added": (b, a) => refs("tasks", a.taskOrder.slice(b.taskOrder.length)),
  "task.updated": (_b, _a, e) => refs("tasks", [field(e, "taskId")]),
  "task.review_requested": (_b, _a, e) => [...refs("tasks", [field(e, "taskId")]), ...cited(e)],
  review: (_b, _a, e) => [...refs("tasks", [field(e, "taskId")]), ...cited(e)],
  "evidence.bundle": (_b, _a, e) =>
    refs("evidence", [field(e, "bundleId")]).concat(refs("tasks", [e.taskId])),
  "workcell.opened": (_b, a, e) => {
    const id = (e as AppliedEvent & { type: "workcell.opened" }).body.manifest.workcell_id;
    return refs("workcells", [id]).concat(refs("tasks", [a.workcells[id]?.taskId ?? undefined]));
  },
  "workcell.proof": (_b, _a, e) => {
    const proof = (e as AppliedEvent & { type: "workcell.proof" }).body.proof;
    return refs("workcells", [proof.workcell_id]);
  },
  decision: (_b, _a, e) => [...subject(e), ...cited(e)],
  "deadline.passed": (_b, _a, e) => subject(e),
  escalation: (_b, _a, e) => [
    ...refs("escalations", [field(e, "escalationId") ?? `esc_${e.seq}`]),
    ...cited(e),
  ],
  "escalation.answered": (_b, _a, e) => refs("escalations", [field(e, "escalationId")]),
  "run.started": (_b, _a, e) => refs("runs", [field(e, "runId")]),
  "run.verified": (_b, _a, e) => refs("runs", [field(e, "runId")]),
  "run.committed": (_b, _a, e) => refs("runs", [field(e, "runId")]),
  "run.discarded": (_b, _a, e) => refs("runs", [field(e, "runId")]),
  note: (_b, _a, e) => refs("runs", [e.runId ?? field(e, "RUN_ID")]),
  "job.posted": (_b, _a, e) => refs("jobs", [field(e, "jobId")]),
  "job.funded": (_b, _a, e) => refs("jobs", [field(e, "jobId")]),
  "job.delivered": (_b, _a, e) => [...refs("jobs", [field(e, "jobId")]), ...cited(e)],
  "job.settled": (_b, _a, e) => refs("jobs", [field(e, "jobId")]),
};

/** The retained entries `e` may have added or changed (some may not exist: the count skips them). */
export function touchedEntries(before: PodState, after: PodState, e: AppliedEvent): EntryRef[] {
  return TOUCHES[e.type]?.(before, after, e) ?? [];
}

const size = (s: PodState, [key, id]: EntryRef) =>
  Object.hasOwn(s[key], id) ? JSON.stringify(s[key][id]).length : 0;

/** How much the retained entries grew (or shrank) with `e`, in characters of JSON. */
export function retainedChange(before: PodState, after: PodState, e: AppliedEvent): number {
  let change = 0;
  for (const ref of new Map(touchedEntries(before, after, e).map((r) => [r.join("\u0000"), r])).values()) {
    change += size(after, ref) - size(before, ref);
  }
  return change;
}
