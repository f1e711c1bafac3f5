// The door to a pod's capped collections (../pod-bounds.ts): after the rules accepted an event,
// is the state it leads to within the bounds? Checked where events are appended (plan-group.ts),
// never on replay: a tape stored before a bound existed still replays to the state it had.
// Each check looks only at what its event type adds or grows, so the cost is the event's.
import { jsonBytes } from "../events/seed-formats";
import { boundExceeded, POD_BOUNDS, type PodBounds } from "../pod-bounds";
import type { AppliedEvent, PodState, Task } from "./pod-state";

type Check = (after: PodState, e: AppliedEvent, b: PodBounds) => void;
type Keyed = "members" | "escalations" | "evidence" | "runs" | "jobs" | "workcells" | "planBlocks";

/** Entries of a record, counted only when its event may have added one. */
function atMost(after: PodState, key: Keyed, b: PodBounds, what: string) {
  const n = Object.keys(after[key]).length;
  if (n > b[key]) throw boundExceeded(key, `a pod keeps at most ${b[key]} ${what}; this event would make ${n}`);
}

function taskWithin(task: Task | undefined, b: PodBounds) {
  if (!task) return;
  const meta = jsonBytes(task.metadata);
  if (meta > b.taskMetadataBytes) {
    throw boundExceeded("taskMetadataBytes", `task ${task.taskId}'s metadata would be ${meta} bytes as JSON, more than ${b.taskMetadataBytes} bytes`);
  }
  if (task.evidenceIds.length > b.taskEvidence) {
    throw boundExceeded("taskEvidence", `task ${task.taskId} would cite ${task.evidenceIds.length} evidence bundles, more than ${b.taskEvidence}`);
  }
  if (task.workcellIds.length > b.taskWorkcells) {
    throw boundExceeded("taskWorkcells", `task ${task.taskId} would have ${task.workcellIds.length} workcells, more than ${b.taskWorkcells}`);
  }
}

function tasksWithin(after: PodState, b: PodBounds) {
  const n = after.taskOrder.length;
  if (n > b.tasks) throw boundExceeded("tasks", `a pod's plan holds at most ${b.tasks} tasks; this event would make ${n}`);
}

/** The task an event names in its body, or in its envelope. */
const taskOf = (after: PodState, e: AppliedEvent) => {
  const id = (e.body as { taskId?: unknown }).taskId ?? e.taskId;
  return typeof id === "string" && Object.hasOwn(after.tasks, id) ? after.tasks[id] : undefined;
};

const CHECKS: Partial<Record<AppliedEvent["type"], Check>> = {
  "plan.imported": (a, _e, b) => tasksWithin(a, b),
  "task.added": (a, _e, b) => tasksWithin(a, b),
  "task.updated": (a, e, b) => taskWithin(taskOf(a, e), b),
  "task.review_requested": (a, e, b) => taskWithin(taskOf(a, e), b),
  review: (a, e, b) => taskWithin(taskOf(a, e), b),
  "evidence.bundle": (a, e, b) => (atMost(a, "evidence", b, "evidence bundles"), taskWithin(taskOf(a, e), b)),
  "workcell.opened": (a, e, b) => {
    atMost(a, "workcells", b, "workcells");
    const wc = a.workcells[(e as AppliedEvent & { type: "workcell.opened" }).body.manifest.workcell_id];
    taskWithin(wc?.taskId ? a.tasks[wc.taskId] : undefined, b);
  },
  "member.joined": (a, _e, b) => atMost(a, "members", b, "members"),
  escalation: (a, _e, b) => atMost(a, "escalations", b, "escalations"),
  "run.started": (a, _e, b) => atMost(a, "runs", b, "runs"),
  "job.posted": (a, _e, b) => atMost(a, "jobs", b, "jobs"),
  "plan.review": (a, _e, b) => atMost(a, "planBlocks", b, "open plan blocks"),
};

/** Throws the bound (422 bound_exceeded) that `after`, the state `e` led to, would cross. */
export function admitEvent(after: PodState, e: AppliedEvent, bounds: PodBounds = POD_BOUNDS): void {
  CHECKS[e.type]?.(after, e, bounds);
}
