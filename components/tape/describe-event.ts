// One readable line per event type, for the tape. Pure text: rendered as a text node.
// Keyed by every event type of the vocabulary, each with its own body type: a new
// event type does not compile until it is described here (null: the tape shows the type).
import type { TEvent } from "@/server/wire/events";
import type { EventType } from "@/server/wire/vocabulary";

type BodyOf<T extends EventType> = Extract<TEvent, { type: T }>["body"];
export type Describers = { [T in EventType]: (body: BodyOf<T>) => string | null };

const DESCRIBE: Describers = {
  "pod.scope_agreed": (b) => `Scope agreed: ${b.scope} (${b.successCriteria?.length ?? 0} success criteria)`,
  "pod.started": () => "Pod started",
  "pod.paused": (b) => `Pod paused${b.reason ? `: ${b.reason}` : ""}`,
  "pod.resumed": () => "Pod resumed",
  "pod.closed": (b) => `Pod closed${b.reason ? `: ${b.reason}` : ""}`,
  "member.joined": (b) => `${b.displayName} (${b.memberId}) joined as ${b.kind}`,
  "access.granted": () => null,
  "access.revoked": (b) => `${b.memberId} no longer has access`,
  "role.assigned": (b) => `${b.memberId} is now ${b.role}`,
  "role.rotated": (b) => `${b.role} rotated from ${b.from} to ${b.to}`,
  "plan.imported": (b) => `Plan imported with ${b.plan?.tasks?.length ?? 0} tasks`,
  "task.added": (b) => `Task added${b.taskId ? ` ${b.taskId}` : ""}: ${b.description}`,
  "task.updated": (b) =>
    `Task ${b.taskId}${b.status ? ` → ${b.status}` : " updated"}${b.blockedReason ? ` (${b.blockedReason})` : ""}`,
  "task.review_requested": (b) =>
    `Review requested for ${b.taskId}${b.evidenceIds?.length ? ` with ${b.evidenceIds.join(", ")}` : ""}`,
  checkpoint: (b) =>
    [
      b.completed.length && `✓ ${b.completed.join("; ")}`,
      b.next.length && `→ ${b.next.join("; ")}`,
      b.blocked.length && `⚠ ${b.blocked.join("; ")}`,
    ]
      .filter(Boolean)
      .join("  "),
  note: (b) => `${b.kind}: ${b.text ?? ""}`,
  review: (b) => `Review of ${b.taskId}: ${b.verdict}${b.comments ? ` — ${b.comments}` : ""}`,
  decision: (b) =>
    `Decision on ${b.subject?.kind} ${b.subject?.id}: ${b.verdict}${b.tieBreaker ? ` (${b.tieBreaker})` : ""} — ${b.rationale}`,
  "plan.review": (b) => `Plan ${b.planId ?? ""} ${b.verdict}${b.rationale ? ` — ${b.rationale}` : ""}`,
  escalation: (b) => `Needs a human (${b.kind}): ${b.question}`,
  "escalation.answered": (b) => `Answered ${b.escalationId}: ${b.answer}`,
  handoff: (b) => `Handoff to ${b.to}: ${b.reason}`,
  "run.started": (b) => `Run ${b.runId} started on ${b.workItemId} (${b.mood})`,
  "run.verified": (b) => `Run ${b.runId} ${b.by} verification ${b.passed ? "passed" : "failed"}`,
  "run.committed": (b) => `Run ${b.runId} committed ${b.commit}`,
  "run.discarded": (b) => `Run ${b.runId} discarded: ${b.reason}`,
  "evidence.bundle": (b) =>
    `Evidence ${b.bundleId}: ${b.commands?.length ?? 0} commands, ${b.artifacts?.length ?? 0} artifacts @ ${b.env?.commit}`,
  "workcell.opened": (b) =>
    `Workcell ${b.manifest?.workcell_id} opened for issue ${b.manifest?.issue?.id}: ${b.manifest?.issue?.title}`,
  "workcell.proof": (b) =>
    `Proof for ${b.proof?.workcell_id}: ${b.proof?.status}, gates ${b.proof?.verification?.all_passed ? "all passed" : `failed: ${(b.proof?.verification?.blocking_failures ?? []).join(", ")}`}`,
  "job.posted": (b) =>
    `Job ${b.jobId} posted: ${b.scope} (${b.settlement?.amount} ${b.settlement?.currency})`,
  "job.funded": (b) => `Job ${b.jobId} funded into escrow`,
  "job.delivered": (b) => `Job ${b.jobId} delivered`,
  "job.settled": (b) => `Job ${b.jobId} settled: escrow ${b.outcome}`,
  "budget.set": (b) =>
    b.limit === null
      ? `Budget ${b.budgetId} removed`
      : `Budget ${b.budgetId}${b.agentId ? ` of ${b.agentId}` : " of the pod"}: ${b.limit} ${b.metric?.replace("_", " ")}, then ${b.then?.replace("_", " ") ?? "notify"}`,
  "budget.exceeded": (b) =>
    `Budget ${b.budget}${b.agentId ? ` of ${b.agentId}` : ""} exceeded: ${b.used} of ${b.limit}${b.then && b.then !== "notify" ? ` (${b.then.replace("_", " ")})` : ""}`,
  "deadline.passed": (b) =>
    `Deadline passed on ${b.subject?.kind} ${b.subject?.id}: ${b.outcome}${b.answer ? ` "${b.answer}"` : ""}`,
  "agent.stale": (b) =>
    `${b.agentId} has not checkpointed for ${b.cadenceMinutes} minutes (since ${b.since})`,
  "notice.posted": (b) => `Notice for the pod's admins: ${b.title}`,
  "notice.dismissed": (b) => `Notice ${b.noticeId} dismissed`,
  "session.started": (b) =>
    b.parentSessionId
      ? `Subagent session started (${b.agentType ?? "subagent"}, under session ${b.parentSessionId})`
      : `Session started (${b.via}${b.model ? `, ${b.model}` : ""}${b.source && b.source !== "startup" ? `, ${b.source}` : ""})${b.cwd ? ` in ${b.cwd}` : ""}`,
  "session.ended": (b) => `Session ended${b.reason ? ` (${b.reason})` : ""}`,
  "prompt.submitted": (b) =>
    b.text !== undefined ? `Prompt: ${b.text}` : `Prompt (${b.chars} characters, text kept off the tape)`,
  "tool.call": (b) => {
    const gate = b.gate
      ? ` · ${b.gate.decision === "allow" ? "allowed" : "denied"} by ${b.gate.by}${b.gate.reason ? `: ${b.gate.reason}` : ""}`
      : "";
    const what = b.input ? `: ${b.input}` : "";
    if (b.phase === "started") return `${b.tool}${what}${gate}`;
    const took =
      b.durationMs !== undefined
        ? ` in ${b.durationMs < 1000 ? `${b.durationMs} ms` : `${(b.durationMs / 1000).toFixed(1)} s`}`
        : "";
    return b.phase === "failed"
      ? `${b.tool} failed${took}${b.error ? `: ${b.error}` : ""}${gate}`
      : `${b.tool} done${took}${gate}`;
  },
  "agent.notified": (b) => `${b.title ? `${b.title}: ` : ""}${b.message}`,
  subagent: (b) => `Subagent ${b.agentType ?? b.agentId} ${b.phase}${b.summary ? `: ${b.summary}` : ""}`,
  "session.compacted": (b) => `Context compacted (${b.trigger})`,
  "usage.reported": (b) =>
    `${b.model}: ${b.inputTokens} in, ${b.outputTokens} out${b.cacheReadTokens ? `, ${b.cacheReadTokens} cached` : ""}${b.costUsd !== undefined ? `, $${b.costUsd.toFixed(4)}` : ""}`,
  "agent.policy.set": (b) =>
    `Tool policy ${b.agentId ? `for ${b.agentId}` : "for the pod"}: ${b.rules.length} rule${b.rules.length === 1 ? "" : "s"}${b.recordPrompts === false ? ", prompt text kept off the tape" : ""}`,
  "tool.approval.requested": (b) =>
    `Asks to run ${b.tool}: ${b.input.length > 200 ? `${b.input.slice(0, 200)}…` : b.input}`,
  "tool.approval.answered": (b) =>
    `${b.decision === "allow" ? "Allowed" : "Denied"} ${b.requestId}${b.remember === "session" ? " for this session" : b.remember === "always" ? " always" : ""}${b.reason ? `: ${b.reason}` : ""}`,
  "session.steered": (b) =>
    `${b.act === "interrupt" ? "Interrupts" : b.act === "resume" ? "Resumes" : "Tells"} session ${b.sessionId}: ${b.text}`,
  "session.steer.delivered": (b) => `Took steer ${b.steerId} at its ${b.via} hook`,
  "session.idle.held": (b) =>
    `Idle in session ${b.sessionId}, waiting for a person's Resume until ${b.until}`,
};

/** `body` is what the tape stored for `type`; a shape the describer does not expect yields null, never a throw. */
export function describeEvent(type: string, body: unknown): string | null {
  if (!Object.hasOwn(DESCRIBE, type)) return null;
  const describe = DESCRIBE[type as EventType] as (body: unknown) => string | null;
  try {
    return describe(body ?? {});
  } catch {
    return null;
  }
}
