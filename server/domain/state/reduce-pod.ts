// Pod lifecycle, members, roles, handoffs, checkpoints and notes.
import {
  at,
  conflictRule,
  invalidRule,
  type R,
  type Reducers,
  requireMember,
  requireMembershipAdmin,
  requireSteward,
  requireTask,
  with_,
  without,
} from "./rules";
import type { PodState } from "./pod-state";
import { recordCheckpoint } from "./cadence";
import { requireNoBudgetPause } from "./reduce-budgets";
import { POD_BOUNDS } from "../pod-bounds";

const scopeAgreed: R<"pod.scope_agreed"> = (s, e) => {
  requireSteward(s, e.actor, "agree the pod's scope");
  return { ...s, scope: { ...e.body, seq: e.seq } };
};

const started: R<"pod.started"> = (s, e) => {
  requireSteward(s, e.actor, "start the pod");
  if (s.status !== "forming")
    throw conflictRule("invalid_pod_transition", `pod is ${s.status}; only a forming pod starts`);
  if (!s.scope)
    throw conflictRule(
      "scope_not_agreed",
      "agree on scope and success criteria (pod.scope_agreed) before starting",
    );
  requireNoBudgetPause(s, e.actor, "start the pod");
  return { ...s, status: "active" };
};
const paused: R<"pod.paused"> = (s, e) => {
  requireSteward(s, e.actor, "pause the pod");
  if (s.status !== "active")
    throw conflictRule("invalid_pod_transition", `pod is ${s.status}; only an active pod pauses`);
  return { ...s, status: "paused" };
};
const resumed: R<"pod.resumed"> = (s, e) => {
  requireSteward(s, e.actor, "resume the pod");
  if (s.status !== "paused")
    throw conflictRule("invalid_pod_transition", `pod is ${s.status}; only a paused pod resumes`);
  requireNoBudgetPause(s, e.actor, "resume the pod");
  return { ...s, status: "active" };
};
const closed: R<"pod.closed"> = (s, e) => {
  requireSteward(s, e.actor, "close the pod");
  return { ...s, status: "closed" };
};

const memberJoined: R<"member.joined"> = (s, e) => {
  requireMembershipAdmin(s, e.actor);
  const { memberId, kind, displayName } = e.body;
  if (Object.hasOwn(s.members, memberId))
    throw conflictRule("member_exists", `${memberId} is already a member`);
  if (kind === "agent" && e.body.access)
    throw invalidRule("access_for_humans", "agents speak through tokens; pod access is for human members");
  const access = kind === "human" ? (e.body.access ?? "viewer") : null;
  return {
    ...s,
    members: with_(s.members, memberId, { memberId, kind, displayName, roles: [], access, joinedSeq: e.seq }),
  };
};

const accessGranted: R<"access.granted"> = (s, e) => {
  requireMembershipAdmin(s, e.actor);
  const m = requireMember(s, e.body.memberId);
  if (m.kind !== "human")
    throw invalidRule("access_for_humans", "agents speak through tokens; pod access is for human members");
  if (e.body.access !== "admin")
    keepAnAdmin(s, m.memberId, "make someone else an admin before changing their access");
  return { ...s, members: with_(s.members, m.memberId, { ...m, access: e.body.access }) };
};

/** The person leaves the members (and their roles with them), so the pod's access policy no longer finds them. */
const accessRevoked: R<"access.revoked"> = (s, e) => {
  requireMembershipAdmin(s, e.actor);
  const m = requireMember(s, e.body.memberId);
  if (m.kind !== "human")
    throw invalidRule("access_for_humans", "agents speak through tokens: revoke the agent's tokens instead");
  keepAnAdmin(s, m.memberId, "make someone else an admin before removing them");
  return { ...s, members: without(s.members, m.memberId) };
};

/** A pod whose people include an admin keeps at least one. */
function keepAnAdmin(s: PodState, memberId: string, hint: string) {
  if (s.members[memberId]?.access !== "admin") return;
  const others = Object.values(s.members).filter(
    (o) => o.memberId !== memberId && o.kind === "human" && o.access === "admin",
  );
  if (others.length === 0) throw conflictRule("last_admin", `${memberId} is the pod's last admin: ${hint}`);
}

const roleAssigned: R<"role.assigned"> = (s, e) => {
  requireSteward(s, e.actor, "assign roles");
  const { memberId, role } = e.body;
  const m = requireMember(s, memberId);
  if (m.roles.includes(role)) throw conflictRule("role_already_held", `${memberId} already holds ${role}`);
  const chair = role === "chair" && Object.values(s.members).find((o) => o.roles.includes("chair"));
  if (chair)
    throw conflictRule(
      "chair_taken",
      `${chair.memberId} is the chair (the unique decision authority): rotate the role instead`,
    );
  return {
    ...s,
    members: with_(s.members, memberId, { ...m, roles: [...m.roles, role] }),
    roleHistory: [...s.roleHistory, { ...at(e), memberId, role, action: "assigned" as const }].slice(
      -POD_BOUNDS.roleHistory,
    ),
  };
};

const roleRotated: R<"role.rotated"> = (s, e) => {
  const { role, from, to } = e.body;
  if (e.actor !== from) requireSteward(s, e.actor, "rotate someone else's role");
  const a = requireMember(s, from);
  const b = requireMember(s, to);
  if (!a.roles.includes(role)) throw conflictRule("role_not_held", `${from} does not hold ${role}`);
  if (from === to || b.roles.includes(role))
    throw conflictRule("role_already_held", `${to} already holds ${role}`);
  const members = with_(with_(s.members, from, { ...a, roles: a.roles.filter((r) => r !== role) }), to, {
    ...b,
    roles: [...b.roles, role],
  });
  const history = [
    ...s.roleHistory,
    { ...at(e), memberId: from, role, action: "rotated_out" as const },
    { ...at(e), memberId: to, role, action: "rotated_in" as const },
  ].slice(-POD_BOUNDS.roleHistory);
  return { ...s, members, roleHistory: history };
};

/** docs/protocol/plan-and-handoffs.md#handoffs: the orchestrator validates that the destination exists, then switches the active agent. */
const handoff: R<"handoff"> = (s, e) => {
  if (!Object.hasOwn(s.members, e.body.to))
    throw invalidRule("unknown_member", `handoff destination ${e.body.to} is not a member of this pod`);
  return {
    ...s,
    activeAgent: e.body.to,
    handoffs: [...s.handoffs, { ...at(e), from: e.actor, to: e.body.to, reason: e.body.reason }].slice(
      -POD_BOUNDS.handoffs,
    ),
  };
};

const checkpoint: R<"checkpoint"> = (s, e) => {
  const taskId = e.body.taskId ?? e.taskId;
  if (taskId) requireTask(s, taskId);
  return recordCheckpoint({ ...s, lastCheckpoint: { ...at(e), actor: e.actor } }, e);
};

/** docs/protocol/runs-and-notes.md#notes: a run's notes are kept whatever the run's outcome. */
const note: R<"note"> = (s, e) => {
  const runId = e.runId ?? e.body.RUN_ID;
  const run = runId ? s.runs[runId] : undefined;
  if (!run) return s;
  return {
    ...s,
    runs: with_(s.runs, run.runId, {
      ...run,
      noteSeqs: [...run.noteSeqs, e.seq].slice(-POD_BOUNDS.runNotes),
    }),
  };
};

export const podReducers = {
  "pod.scope_agreed": scopeAgreed,
  "pod.started": started,
  "pod.paused": paused,
  "pod.resumed": resumed,
  "pod.closed": closed,
  "member.joined": memberJoined,
  "access.granted": accessGranted,
  "access.revoked": accessRevoked,
  "role.assigned": roleAssigned,
  "role.rotated": roleRotated,
  handoff,
  checkpoint,
  note,
} satisfies Partial<Reducers>;
