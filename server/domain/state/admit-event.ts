// The door to what a pod accumulates (../pod-bounds.ts): after the rules accepted an event, is
// the state it leads to within the bounds? Checked where events are appended (plan-group.ts),
// never on replay: a tape stored before a bound existed still replays to the state it had.
// Each check looks only at what its event type adds or grows, so the cost is the event's.
import { jsonBytes } from "../events/seed-formats";
import { boundExceeded, POD_BOUNDS, type PodBounds } from "../pod-bounds";
import type { AppliedEvent, PodState, Task } from "./pod-state";
import { touchedEntries } from "./retained-entries";

type Counted = "tasks" | "members" | "escalations" | "evidence" | "runs" | "jobs" | "workcells" | "planBlocks";
const NAMES: Record<Counted, string> = {
  tasks: "tasks", members: "members", escalations: "escalations", evidence: "evidence bundles",
  runs: "runs", jobs: "jobs", workcells: "workcells", planBlocks: "open plan blocks",
};
/** The collection an event type may add an entry to. */
const ADDS: Partial<Record<AppliedEvent["type"], Counted>> = {
  "plan.imported": "tasks", "task.added": "tasks", "member.joined": "members", escalation: "escalations",
  "evidence.bundle": "evidence", "run.started": "runs", "job.posted": "jobs", "workcell.opened": "workcells", "plan.review": "planBlocks",
};

/** Characters an event may add to a full pod's retained entries. */
export const CLOSING_SLACK = 256;

const count = (s: PodState, key: Counted) => (key === "tasks" ? s.taskOrder.length : Object.keys(s[key]).length);

/**
 * A task's own bounds, refused only when the event grew past them: a task stored before a bound
 * existed may be larger, and it still moves through its states.
 */
function taskWithin(was: Task | undefined, task: Task, b: PodBounds) {
  const meta = jsonBytes(task.metadata);
  if (meta > b.taskMetadataBytes && (!was || meta > jsonBytes(was.metadata))) {
    throw boundExceeded("taskMetadataBytes", `task ${task.taskId}'s metadata would be ${meta} bytes as JSON, more than ${b.taskMetadataBytes} bytes`);
  }
  const cites = task.evidenceIds.length;
  if (cites > b.taskEvidence && cites > (was?.evidenceIds.length ?? 0)) {
    throw boundExceeded("taskEvidence", `task ${task.taskId} would cite ${cites} evidence bundles, more than ${b.taskEvidence}`);
  }
  const cells = task.workcellIds.length;
  if (cells > b.taskWorkcells && cells > (was?.workcellIds.length ?? 0)) {
    throw boundExceeded("taskWorkcells", `task ${task.taskId} would have ${cells} workcells, more than ${b.taskWorkcells}`);
  }
}

const agentCount = (s: PodState) => Object.values(s.members).filter((m) => m.kind === "agent").length;

/** The characters of JSON of one agent's "allow for this session" answers, over its sessions. */
function allowChars(s: PodState, agentId: string) {
  let n = 0;
  for (const session of Object.values(s.sessions)) {
    const allows = session.agentId === agentId && Object.hasOwn(s.sessionAllows, session.sessionId) ? s.sessionAllows[session.sessionId] : undefined;
    if (allows) n += JSON.stringify(allows).length;
  }
  return n;
}

/** Per agent: how many there are, and the session allows people gave one (each holds a whole tool input). */
function agentWithin(before: PodState, after: PodState, e: AppliedEvent, b: PodBounds) {
  if (e.type === "member.joined" && e.body.kind === "agent") {
    const n = agentCount(after);
    if (n > b.agents && n > agentCount(before)) throw boundExceeded("agents", `a pod has at most ${b.agents} agent members; this event would make ${n}`);
  }
  if (e.type === "tool.approval.answered" && e.body.remember === "session") {
    const agentId = Object.hasOwn(after.toolApprovals, e.body.requestId) ? after.toolApprovals[e.body.requestId]!.agentId : null;
    const n = agentId === null ? 0 : allowChars(after, agentId);
    if (n > b.sessionAllowChars && n > allowChars(before, agentId!)) {
      throw boundExceeded("sessionAllowChars", `${agentId}'s "allow for this session" answers would take ${n} characters, more than ${b.sessionAllowChars}: allow once`);
    }
  }
}

/** Throws the bound (422 bound_exceeded) that `after`, the state `e` led to from `before`, would cross. */
export function admitEvent(before: PodState, after: PodState, e: AppliedEvent, b: PodBounds = POD_BOUNDS): void {
  const adds = ADDS[e.type];
  if (adds) {
    const n = count(after, adds);
    if (n > b[adds] && n > count(before, adds)) throw boundExceeded(adds, `a pod keeps at most ${b[adds]} ${NAMES[adds]}; this event would make ${n}`);
  }
  agentWithin(before, after, e, b);
  for (const [key, id] of touchedEntries(before, after, e)) {
    if (key === "tasks" && Object.hasOwn(after.tasks, id)) taskWithin(Object.hasOwn(before.tasks, id) ? before.tasks[id] : undefined, after.tasks[id]!, b);
  }
  // A full pod still closes its work: a decision, a run's end or a short answer changes an entry
  // by a few characters (a status, a seq), so only growth beyond that is refused.
  if (after.retained > b.retainedChars && after.retained - before.retained > CLOSING_SLACK) {
    throw boundExceeded("retainedChars", `the pod would keep ${after.retained} characters of tasks, evidence, escalations, runs, jobs and workcells, more than ${b.retainedChars}`);
  }
}
