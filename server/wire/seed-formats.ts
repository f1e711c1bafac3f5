// The seed documents an agent sends whole: plan.json (seed 003), the task manifest and proof.json
// of a workcell (seed 004). The schemas are the domain's (pure zod, no I/O).
export { ZPlanJson, ZTaskManifest, ZProof } from "../domain/events/seed-formats";
