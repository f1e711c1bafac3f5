// The file formats an agent sends whole (docs/protocol/): plan.json, the task manifest and
// proof.json of a workcell. The schemas are the domain's (pure zod, no I/O).
import type { Ack } from "./events";
import type { TaskState } from "./vocabulary";

export { ZPlanJson, ZTaskManifest, ZProof } from "../domain/events/seed-formats";

/** GET /api/v1/pods/{podId}/plan (plan_read, docs/protocol/plan-and-handoffs.md#planjson): the pod's plan in plan.json's own format. */
export type PlanRead = {
  tasks: {
    task_id: string;
    description: string;
    status: TaskState;
    metadata: Record<string, unknown>;
    depends_on?: string[];
  }[];
};
/** POST /plan answers the plan.imported event and the plan as it now reads. */
export type PlanImported = { event: Ack; plan: PlanRead };
/** POST /workcells and POST /workcells/{id}/proof answer the workcell and its event. */
export type WorkcellAck = { workcellId: string; event: Ack };
