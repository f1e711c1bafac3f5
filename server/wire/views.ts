// What the control room's views read: a pod's state as GET /state answers it, and the inbox
// across pods as GET /inbox answers it. Made of the domain's projection types.
import type { Escalation, Evidence, InboxItem, Job, Member, PodState, Run, Task, Workcell } from "../domain/state/pod-state";

/** GET /api/v1/pods/{podId}/state (also `?atSeq=`): the pod's projections, the board in plan order, the inbox oldest first. */
export type PodStateView = Pick<PodState, "seq" | "status" | "scope" | "activeAgent" | "roleHistory" | "handoffs" | "decisions" | "budgets" | "lastCheckpoint"> & {
  members: Member[];
  /** Each task with the gates that hold its approval (failing evidence or proofs). */
  board: (Task & { failingGates: string[] })[];
  inbox: InboxItem[];
  escalations: Escalation[];
  evidence: Evidence[];
  runs: Run[];
  jobs: Job[];
  workcells: Workcell[];
  planBlocks: PodState["planBlocks"][string][];
};

/** One thing waiting for a human, in any pod the caller may see, with whether they may act on it. */
export type InboxEntry = InboxItem & { podId: string; podName: string; canAct: boolean; blockedBy: string[] };
/** GET /api/v1/inbox: oldest first. */
export type InboxResponse = { items: InboxEntry[] };
