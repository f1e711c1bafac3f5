// Which status changes an agent may make with task.updated (plan_update_task).
// in_review comes from task.review_requested, changes_requested from a review,
// done and rejected only from a decision: the reviewer and the chair gate them.
import type { TaskState } from "../events/seed-formats";

export const AGENT_TRANSITIONS: Record<TaskState, TaskState[]> = {
  pending: ["in_progress", "blocked", "cancelled"],
  in_progress: ["pending", "blocked", "cancelled"],
  changes_requested: ["in_progress", "blocked", "cancelled"],
  blocked: ["pending", "in_progress", "cancelled"],
  in_review: ["cancelled"],
  done: [],
  rejected: [],
  cancelled: [],
};

/** Returns a cycle (as task ids) in the dependency graph, or null. */
export function findCycle(deps: Record<string, string[]>): string[] | null {
  const state = new Map<string, "visiting" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === "done") return null;
    if (state.get(id) === "visiting") return [...path.slice(path.indexOf(id)), id];
    state.set(id, "visiting");
    path.push(id);
    for (const d of deps[id] ?? []) {
      const c = visit(d);
      if (c) return c;
    }
    path.pop();
    state.set(id, "done");
    return null;
  };
  for (const id of Object.keys(deps)) {
    const c = visit(id);
    if (c) return c;
  }
  return null;
}
