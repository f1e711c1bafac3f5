// What backs each inbox item, for the card that asks a person to decide: the
// task's review, evidence and proofs with their gates; the job's settlement and
// acceptance tests; the escalation's question, task, options and evidence; a held
// tool call's agent, tool and session; a crossed budget's numbers.
import type { InboxItem, PodState, ToolApproval } from "../domain/state/pod-state";
import type { InboxCard, InboxContext, InboxEvidence, InboxProof } from "../wire/views";
import { budgetUse } from "../domain/state/meters";
import { AGENT_KINDS, type AgentKind } from "../domain/vocabulary";

function evidenceOf(s: PodState, ids: string[]): InboxEvidence[] {
  return ids.flatMap((id) => {
    const e = s.evidence[id];
    return e
      ? [
          {
            bundleId: e.bundleId,
            passed: e.passed,
            commandCount: e.commandCount,
            failedCommands: e.failedCommands,
            seq: e.seq,
          },
        ]
      : [];
  });
}

function proofsOf(s: PodState, workcellIds: string[]): InboxProof[] {
  return workcellIds.flatMap((id) => {
    const wc = s.workcells[id];
    if (!wc) return [];
    const p = wc.proof;
    // A gate the proof names as failing but the manifest did not declare is still shown.
    const names = [...wc.gates, ...(p?.failingGates ?? []).filter((g) => !wc.gates.includes(g))];
    return [
      {
        workcellId: id,
        title: wc.title,
        status: p?.status ?? null,
        gates: names.map((name) => ({ name, passed: p ? !p.failingGates.includes(name) : null })),
        forbiddenPathViolations: p?.forbiddenPathViolations ?? [],
        overDiffBudget: p?.overDiffBudget ?? false,
      },
    ];
  });
}

export function inboxContext(s: PodState, item: InboxItem): InboxContext | null {
  const { kind, id } = item.subject;
  if (kind === "task") {
    const t = s.tasks[id];
    return t
      ? {
          kind: "task",
          taskId: t.taskId,
          description: t.description,
          status: t.status,
          review: t.review,
          evidence: evidenceOf(s, t.evidenceIds),
          proofs: proofsOf(s, t.workcellIds),
        }
      : null;
  }
  if (kind === "job") {
    const j = s.jobs[id];
    return j
      ? {
          kind: "job",
          jobId: j.jobId,
          scope: j.scope,
          settlement: j.settlement,
          constraints: j.constraints,
          acceptanceTests: j.acceptanceTests,
          escrow: j.escrow,
          evidence: evidenceOf(s, j.evidenceIds),
        }
      : null;
  }
  if (kind === "escalation") {
    const e = s.escalations[id];
    if (!e) return null;
    const t = e.taskId ? s.tasks[e.taskId] : undefined;
    return {
      kind: "escalation",
      escalationKind: e.kind,
      question: e.question,
      askedBy: e.askedBy,
      options: e.options,
      task: t ? { taskId: t.taskId, description: t.description } : null,
      evidence: evidenceOf(s, e.evidenceIds),
    };
  }
  if (kind === "plan") {
    const blocks = Object.entries(s.planBlocks)
      .filter(([k]) => k.startsWith(`${id}:`))
      .map(([, b]) => ({ by: b.by, role: b.role, rationale: b.rationale }));
    return { kind: "plan", planId: id, blocks };
  }
  if (kind === "tool") {
    const a = Object.hasOwn(s.toolApprovals, id) ? s.toolApprovals[id]! : null;
    return a
      ? {
          kind: "tool",
          requestId: a.requestId,
          agentId: a.agentId,
          agentKind: heldBy(s, a),
          tool: a.tool,
          sessionId: a.sessionId,
          cwd: a.sessionId ? (s.sessions[a.sessionId]?.cwd ?? null) : null,
          ruleId: a.ruleId,
        }
      : null;
  }
  if (kind === "budget") {
    // What it uses now is read at the time of the answer: a pod's wall time keeps growing.
    const b = Object.hasOwn(s.budgetLimits, id) ? s.budgetLimits[id]! : null;
    return b
      ? {
          kind: "budget",
          budgetId: b.budgetId,
          agentId: b.agentId,
          metric: b.metric,
          limit: b.limit,
          then: b.then,
          usedAtCrossing: b.exceeded?.used ?? null,
          usedNow: budgetUse(s, b, Date.now()),
          podStatus: s.status,
        }
      : null;
  }
  return null;
}

/**
 * Which agent program holds a call: the one its gate knew, else its session's (`via`), else
 * Claude Code, the only one whose hooks held calls before a call kept its agent.
 */
function heldBy(s: PodState, a: ToolApproval): AgentKind {
  if (a.agent) return a.agent;
  const via = a.sessionId && Object.hasOwn(s.sessions, a.sessionId) ? s.sessions[a.sessionId]!.via : null;
  return AGENT_KINDS.find((k) => k === via) ?? "claude-code";
}

/** The pod's inbox, oldest first, each item with what backs it. */
export function inboxCards(s: PodState): InboxCard[] {
  return Object.values(s.inbox)
    .sort((a, b) => a.seq - b.seq)
    .map((item) => ({ ...item, context: inboxContext(s, item) }));
}
