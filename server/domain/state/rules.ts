// Helpers that refuse an event: every refusal names its rule in `code`.
import { AppError } from "../errors";
import type { EventOf, EventType, Role } from "../events/event-schemas";
import type { AppliedEvent, Job, PodState, Task } from "./pod-state";
import { withKey, withoutKey } from "./shared-record";

/** 409: the event conflicts with the pod's current state. 422: it refers to something that does not exist or is malformed for this pod. */
export const conflictRule = (code: string, message: string) => new AppError(409, code, message);
export const invalidRule = (code: string, message: string) => new AppError(422, code, message);

/** A reducer of one event type: the pod's state after the event, or a thrown rule. */
export type R<T extends AppliedEvent["type"]> = (s: PodState, e: EventOf<T> & AppliedEvent) => PodState;

/** One reducer per event type, each typed by its own event; a reducers module holds a `Partial` of it. */
export type Reducers = { [T in EventType]: R<T> };

/**
 * When something happened, for ages (inbox, checkpoint freshness, staleness): the server's
 * receipt time. An agent's `ts` is its claim, shown on the tape as such; a backdated or
 * future `ts` must not make a pod look fresh or an item look old.
 */
export const at = (e: AppliedEvent) => ({ seq: e.seq, at: e.receivedAt });

export function requireTask(s: PodState, taskId: string): Task {
  const task = s.tasks[taskId];
  if (!task) throw invalidRule("unknown_task", `task ${taskId} does not exist in this pod`);
  return task;
}

export function requireJob(s: PodState, jobId: string): Job {
  const job = s.jobs[jobId];
  if (!job) throw invalidRule("unknown_job", `job ${jobId} does not exist in this pod`);
  return job;
}

export function requireMember(s: PodState, memberId: string) {
  const m = Object.hasOwn(s.members, memberId) ? s.members[memberId] : undefined;
  if (!m) throw invalidRule("unknown_member", `${memberId} is not a member of this pod`);
  return m;
}

export function requireEvidence(s: PodState, ids: string[]) {
  const missing = ids.filter((id) => !s.evidence[id]);
  if (missing.length)
    throw invalidRule("unknown_evidence", `evidence not on this pod's tape: ${missing.join(", ")}`);
}

export const holds = (s: PodState, memberId: string, role: Role) =>
  s.members[memberId]?.roles.includes(role) ?? false;

/** A person who may answer and decide on this pod (access approver or admin). */
export const isApprover = (s: PodState, memberId: string) => {
  const m = s.members[memberId];
  return m?.kind === "human" && (m.access === "approver" || m.access === "admin");
};

/**
 * Who may steer the pod itself (lifecycle, role assignment): the chair, the
 * orchestrator, or a human approver. An actor that is no member at all can
 * only be admin automation (the access layer lets only the admin token speak
 * as a non-member), which may do anything.
 */
export function requireSteward(s: PodState, actor: string, what: string) {
  if (!Object.hasOwn(s.members, actor)) return;
  if (holds(s, actor, "chair") || holds(s, actor, "orchestrator") || isApprover(s, actor)) return;
  throw conflictRule(
    "steward_only",
    `only the chair, the orchestrator or a human approver may ${what}; ${actor} is none of them`,
  );
}

/** Membership and people's access are managed by admins (the members API), never by agents. */
export function requireMembershipAdmin(s: PodState, actor: string) {
  if (!Object.hasOwn(s.members, actor)) return;
  const m = s.members[actor]!;
  if (m.kind === "human" && m.access === "admin") return;
  throw conflictRule("admin_only", `members and access are managed by the pod's admins; ${actor} is not one`);
}

/** docs/protocol/roles.md#decision-authority: the chair is the unique decision authority; human approvers decide from the control room. */
export function requireDecider(s: PodState, actor: string, what: string) {
  if (!(isApprover(s, actor) || holds(s, actor, "chair"))) {
    throw conflictRule(
      "decision_authority",
      `only the chair or a human approver may ${what}; ${actor} is neither`,
    );
  }
}

/** A record with one key set or removed, sharing what it did not change (shared-record.ts). */
export const with_ = <T extends object>(record: Record<string, T>, key: string, value: T) =>
  withKey(record, key, value);
export const without = <T>(record: Record<string, T>, key: string) => withoutKey(record, key);
export const union = <T>(list: T[], more: T[]) => [...new Set([...list, ...more])];
