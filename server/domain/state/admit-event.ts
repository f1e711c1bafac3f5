// The door to what a pod accumulates (../pod-bounds.ts): after the rules accepted an event, is
// the state it leads to within the bounds? Checked where events are appended (plan-group.ts),
// never on replay: a tape stored before a bound existed still replays to the state it had.
// Each check looks only at what its event type adds or grows, so the cost is the event's. A
// bound is refused only when the event grows past it, so a pod already past one (stored before
// it existed) still moves.
import { jsonBytes } from "../events/seed-formats";
import { boundExceeded, POD_BOUNDS, type PodBounds } from "../pod-bounds";
import type { AppliedEvent, PodState, Task } from "./pod-state";
import { touchedEntries } from "./retained-entries";
import { sizeOf } from "./shared-record";

type Counted =
  "tasks" | "members" | "escalations" | "evidence" | "runs" | "jobs" | "workcells" | "planBlocks";
const NAMES: Record<Counted, string> = {
  tasks: "tasks",
  members: "members",
  escalations: "escalations",
  evidence: "evidence bundles",
  runs: "runs",
  jobs: "jobs",
  workcells: "workcells",
  planBlocks: "open plan blocks",
};
/** The collection an event type may add an entry to. */
const ADDS: Partial<Record<AppliedEvent["type"], Counted>> = {
  "plan.imported": "tasks",
  "task.added": "tasks",
  "member.joined": "members",
  escalation: "escalations",
  "evidence.bundle": "evidence",
  "run.started": "runs",
  "job.posted": "jobs",
  "workcell.opened": "workcells",
  "plan.review": "planBlocks",
};

/** Characters an event may add to a full pod's retained entries. */
export const CLOSING_SLACK = 256;

const count = (s: PodState, key: Counted) => (key === "tasks" ? s.taskOrder.length : sizeOf(s[key]));
const agentCount = (s: PodState) => Object.values(s.members).filter((m) => m.kind === "agent").length;

/** A task's own bounds: its metadata after merges, the bundles it cites, its workcells. */
function taskWithin(was: Task | undefined, task: Task, b: PodBounds) {
  const id = task.taskId;
  const meta = jsonBytes(task.metadata);
  if (meta > b.taskMetadataBytes && (!was || meta > jsonBytes(was.metadata))) {
    const limit = b.taskMetadataBytes;
    const what = `task ${id}'s metadata would be ${meta} bytes as JSON`;
    throw boundExceeded("taskMetadataBytes", `${what}, more than ${limit} bytes`);
  }
  const cites = task.evidenceIds.length;
  if (cites > b.taskEvidence && cites > (was?.evidenceIds.length ?? 0)) {
    throw boundExceeded(
      "taskEvidence",
      `task ${id} would cite ${cites} evidence bundles, more than ${b.taskEvidence}`,
    );
  }
  const cells = task.workcellIds.length;
  if (cells > b.taskWorkcells && cells > (was?.workcellIds.length ?? 0)) {
    throw boundExceeded(
      "taskWorkcells",
      `task ${id} would have ${cells} workcells, more than ${b.taskWorkcells}`,
    );
  }
}

/** The characters of JSON of one agent's "allow for this session" answers, over its sessions. */
function allowChars(s: PodState, agentId: string) {
  let n = 0;
  for (const session of Object.values(s.sessions)) {
    if (session.agentId !== agentId || !Object.hasOwn(s.sessionAllows, session.sessionId)) continue;
    n += JSON.stringify(s.sessionAllows[session.sessionId]).length;
  }
  return n;
}

/** Per agent: how many there are, and the session allows people gave one (each holds a whole tool input). */
function agentWithin(before: PodState, after: PodState, e: AppliedEvent, b: PodBounds) {
  if (e.type === "member.joined" && e.body.kind === "agent") {
    const n = agentCount(after);
    if (n > b.agents && n > agentCount(before)) {
      throw boundExceeded(
        "agents",
        `a pod has at most ${b.agents} agent members; this event would make ${n}`,
      );
    }
  }
  if (e.type === "tool.approval.answered" && e.body.remember === "session") {
    const { requestId } = e.body;
    const approval = Object.hasOwn(after.toolApprovals, requestId) ? after.toolApprovals[requestId]! : null;
    const n = approval ? allowChars(after, approval.agentId) : 0;
    if (approval && n > b.sessionAllowChars && n > allowChars(before, approval.agentId)) {
      const what = `${approval.agentId}'s "allow for this session" answers would take ${n} characters`;
      throw boundExceeded("sessionAllowChars", `${what}, more than ${b.sessionAllowChars}: allow once`);
    }
  }
}

/** Throws the bound (422 bound_exceeded) that `after`, the state `e` led to from `before`, would cross. */
export function admitEvent(
  before: PodState,
  after: PodState,
  e: AppliedEvent,
  b: PodBounds = POD_BOUNDS,
): void {
  const adds = ADDS[e.type];
  if (adds) {
    const n = count(after, adds);
    if (n > b[adds] && n > count(before, adds)) {
      throw boundExceeded(adds, `a pod keeps at most ${b[adds]} ${NAMES[adds]}; this event would make ${n}`);
    }
  }
  agentWithin(before, after, e, b);
  for (const [key, id] of touchedEntries(before, after, e)) {
    if (key !== "tasks" || !Object.hasOwn(after.tasks, id)) continue;
    taskWithin(Object.hasOwn(before.tasks, id) ? before.tasks[id] : undefined, after.tasks[id]!, b);
  }
  // A full pod still closes its work: a decision, a run's end or a short answer changes an entry
  // by a few characters (a status, a seq), so only growth beyond that is refused.
  if (after.retained > b.retainedChars && after.retained - before.retained > CLOSING_SLACK) {
    const what = "characters of tasks, evidence, escalations, runs, jobs and workcells";
    throw boundExceeded(
      "retainedChars",
      `the pod would keep ${after.retained} ${what}, more than ${b.retainedChars}`,
    );
  }
}
