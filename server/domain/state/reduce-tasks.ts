// The plan and the task loop: plan.json import, plan_add_task / plan_update_task,
// review requests and reviews (docs/protocol/plan-and-handoffs.md).
import type { TaskState } from "../events/seed-formats";
import type { PodState, Task } from "./pod-state";
import {
  at,
  conflictRule,
  invalidRule,
  type R,
  type Reducers,
  requireDecider,
  requireEvidence,
  requireTask,
  union,
  with_,
  without,
} from "./rules";
import { AGENT_TRANSITIONS, findCycle } from "./task-machine";
import { linkEvidence } from "./reduce-evidence";
import { dueFrom, requireDefaultAuthority } from "./deadlines";

function newTask(
  seq: number,
  taskId: string,
  description: string,
  status: TaskState,
  dependsOn: string[],
  metadata: Record<string, unknown>,
  implementer: string | null = null,
): Task {
  return {
    taskId,
    description,
    status,
    dependsOn,
    metadata,
    implementer,
    implementers: implementer ? [implementer] : [],
    reviewer: null,
    blockedReason: null,
    evidenceIds: [],
    workcellIds: [],
    review: null,
    reviewRounds: 0,
    createdSeq: seq,
    updatedSeq: seq,
  };
}

/**
 * Adds the tasks, each depending only on tasks that exist or come with it. Tasks already there
 * depend only on each other (their dependencies existed when they came), so a cycle can only
 * run through new tasks: they alone are checked, and the cost is theirs, not the plan's.
 */
function addTasks(s: PodState, tasks: Task[]): PodState {
  const taken = tasks.find((t) => Object.hasOwn(s.tasks, t.taskId));
  if (taken) throw conflictRule("task_exists", `task ${taken.taskId} already exists`);
  const added = new Map(tasks.map((t) => [t.taskId, t]));
  if (added.size !== tasks.length)
    throw invalidRule("duplicate_task_id", "a task id appears twice in the plan");
  for (const t of tasks) {
    const unknown = t.dependsOn.filter((d) => !added.has(d) && !Object.hasOwn(s.tasks, d));
    if (unknown.length)
      throw invalidRule("unknown_dependency", `task ${t.taskId} depends on unknown ${unknown.join(", ")}`);
  }
  // No prototype: a dependency on an existing task named like an Object method is a leaf here.
  const deps: Record<string, string[]> = Object.assign(
    Object.create(null),
    Object.fromEntries(tasks.map((t) => [t.taskId, t.dependsOn])),
  );
  const cycle = findCycle(deps);
  if (cycle) throw invalidRule("dependency_cycle", `dependencies form a cycle: ${cycle.join(" → ")}`);
  let all = s.tasks;
  for (const t of tasks) all = with_(all, t.taskId, t);
  return { ...s, tasks: all, taskOrder: [...s.taskOrder, ...tasks.map((t) => t.taskId)] };
}

/**
 * A plan may arrive with work already under way (a completed and an
 * in-progress task, say). Decided states (done, rejected) are a
 * decision, so only a decider may import them; started work is the importer's.
 */
const planImported: R<"plan.imported"> = (s, e) => {
  const tasks = e.body.plan.tasks;
  if (
    tasks.some((t) => t.status === "done" || t.status === "rejected") &&
    Object.hasOwn(s.members, e.actor)
  ) {
    requireDecider(s, e.actor, "import tasks that are already done or rejected");
  }
  const started = (st: TaskState) => st === "in_progress" || st === "in_review" || st === "changes_requested";
  return addTasks(
    s,
    tasks.map((t) =>
      newTask(
        e.seq,
        t.task_id,
        t.description,
        t.status,
        t.depends_on ?? [],
        t.metadata,
        started(t.status) ? e.actor : null,
      ),
    ),
  );
};

/** plan_add_task(description): a new pending task, numbered task_001, task_002… when no id is given. */
const taskAdded: R<"task.added"> = (s, e) => {
  const taskId = e.body.taskId ?? `task_${String(s.taskOrder.length + 1).padStart(3, "0")}`;
  return addTasks(s, [
    newTask(e.seq, taskId, e.body.description, "pending", e.body.dependsOn, e.body.metadata),
  ]);
};

const taskUpdated: R<"task.updated"> = (s, e) => {
  const task = requireTask(s, e.body.taskId);
  const next: Task = {
    ...task,
    updatedSeq: e.seq,
    metadata: { ...task.metadata, ...(e.body.metadata ?? {}) },
  };
  if (e.body.assignee && e.body.assignee !== task.implementer) {
    if (task.status === "in_review")
      throw conflictRule(
        "assignee_frozen",
        `task ${task.taskId} is in review; its implementer cannot change now`,
      );
    next.implementer = e.body.assignee;
    next.implementers = union(task.implementers, [e.body.assignee]);
  }
  const to = e.body.status;
  if (to && to !== task.status) {
    if (!AGENT_TRANSITIONS[task.status].includes(to)) {
      const hint =
        to === "in_review"
          ? " (use task.review_requested)"
          : to === "done" || to === "rejected"
            ? " (needs a decision by the chair or a human)"
            : "";
      throw conflictRule(
        "invalid_transition",
        `task ${task.taskId} cannot go from ${task.status} to ${to}${hint}`,
      );
    }
    if (to === "in_progress") {
      const open = task.dependsOn.filter((d) => s.tasks[d]?.status !== "done");
      if (open.length)
        throw conflictRule(
          "dependency_not_done",
          `task ${task.taskId} depends on unfinished ${open.join(", ")}`,
        );
      next.implementer = e.body.assignee ?? task.implementer ?? e.actor;
      next.implementers = union(next.implementers, [next.implementer]);
    }
    if (to === "blocked" && !e.body.blockedReason)
      throw invalidRule("blocked_reason_required", "say why the task is blocked (blockedReason)");
    next.status = to;
    next.blockedReason = to === "blocked" ? e.body.blockedReason! : null;
  }
  let out: PodState = { ...s, tasks: with_(s.tasks, task.taskId, next) };
  if (next.status === "cancelled")
    out = { ...out, inbox: without(out.inbox, `decision:task:${task.taskId}`) };
  return out;
};

const reviewRequested: R<"task.review_requested"> = (s, e) => {
  const task = requireTask(s, e.body.taskId);
  if (task.status !== "in_progress" && task.status !== "changes_requested") {
    throw conflictRule(
      "invalid_transition",
      `task ${task.taskId} is ${task.status}; review is requested from in_progress or changes_requested`,
    );
  }
  requireEvidence(s, e.body.evidenceIds);
  const { due: _previous, ...rest } = task;
  const due = dueFrom(e.body.deadline, e.receivedAt);
  requireDefaultAuthority(s, e.actor, e.body.deadline, "task");
  const next: Task = {
    ...rest,
    status: "in_review",
    review: null,
    updatedSeq: e.seq,
    implementer: task.implementer ?? e.actor,
    implementers: union(task.implementers, [e.actor]),
    evidenceIds: union(task.evidenceIds, e.body.evidenceIds),
    ...(due ? { due } : {}),
  };
  return linkEvidence(
    { ...s, tasks: with_(s.tasks, task.taskId, next) },
    e.body.evidenceIds,
    "tasks",
    task.taskId,
  );
};

/** docs/protocol/roles.md#reviewers: the reviewer verifies from scratch — and is never the task's own implementer. */
const review: R<"review"> = (s, e) => {
  const task = requireTask(s, e.body.taskId);
  if (task.status !== "in_review")
    throw conflictRule("not_in_review", `task ${task.taskId} is ${task.status}, not in_review`);
  if (task.implementers.includes(e.actor))
    throw conflictRule(
      "reviewer_is_implementer",
      `${e.actor} implemented task ${task.taskId} and may not review it`,
    );
  requireEvidence(s, e.body.evidenceIds);
  const verdict = e.body.verdict;
  const next: Task = {
    ...task,
    reviewer: e.actor,
    review: { ...at(e), verdict, by: e.actor, comments: e.body.comments },
    reviewRounds: task.reviewRounds + 1,
    status: verdict === "approve" ? "in_review" : "changes_requested",
    evidenceIds: union(task.evidenceIds, e.body.evidenceIds),
    updatedSeq: e.seq,
  };
  const key = `decision:task:${task.taskId}`;
  const inbox =
    verdict === "approve"
      ? with_(s.inbox, key, {
          ...at(e),
          id: key,
          kind: "decision" as const,
          title: `Approve task ${task.taskId}: ${task.description}`,
          subject: { kind: "task", id: task.taskId },
          taskId: task.taskId,
          ...(task.due ? { due: task.due } : {}),
        })
      : without(s.inbox, key);
  return linkEvidence(
    { ...s, tasks: with_(s.tasks, task.taskId, next), inbox },
    e.body.evidenceIds,
    "reviews",
    e.seq,
  );
};

export const taskReducers = {
  "plan.imported": planImported,
  "task.added": taskAdded,
  "task.updated": taskUpdated,
  "task.review_requested": reviewRequested,
  review,
} satisfies Partial<Reducers>;
