import type { TapeStore } from "../db/tape-store";
import { notFound } from "../domain/errors";

/** plan_read (seed 003 §1.2): the current plan in plan.json's own format. */
export async function readPlan(store: TapeStore, podId: string) {
  const s = await store.readState(podId);
  if (!s) throw notFound("pod");
  return {
    tasks: s.taskOrder.map((id) => {
      const t = s.tasks[id]!;
      return { task_id: t.taskId, description: t.description, status: t.status, metadata: t.metadata, ...(t.dependsOn.length ? { depends_on: t.dependsOn } : {}) };
    }),
  };
}
