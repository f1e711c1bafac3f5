import type { PodState } from "../domain/state/pod-state";
import type { PlanRead } from "../wire/seed-formats";

/** plan_read (docs/protocol/plan-and-handoffs.md#planjson): the pod's plan in plan.json's own format. */
export function planJson(s: PodState): PlanRead {
  return {
    tasks: s.taskOrder.map((id) => {
      const t = s.tasks[id]!;
      return {
        task_id: t.taskId,
        description: t.description,
        status: t.status,
        metadata: t.metadata,
        ...(t.dependsOn.length ? { depends_on: t.dependsOn } : {}),
      };
    }),
  };
}
