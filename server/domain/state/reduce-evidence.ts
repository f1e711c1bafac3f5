// Evidence bundles and workcells with their Patch + Proof (docs/protocol/workcells-and-evidence.md).
import type { EvidenceLinks, PodState, ProofSummary, Workcell } from "./pod-state";
import { at, conflictRule, invalidRule, type R, type Reducers, requireTask, union, with_ } from "./rules";
import { POD_BOUNDS } from "../pod-bounds";

/** Records that `ids` are linked from a task, decision, escalation, review or job. */
export function linkEvidence<K extends keyof EvidenceLinks>(
  s: PodState,
  ids: string[],
  kind: K,
  ref: EvidenceLinks[K][number],
): PodState {
  if (!ids.length) return s;
  let evidence = s.evidence;
  for (const id of ids) {
    const ev = evidence[id]!;
    evidence = with_(evidence, id, {
      ...ev,
      links: {
        ...ev.links,
        [kind]: union(ev.links[kind] as unknown[], [ref]).slice(-POD_BOUNDS.evidenceLinks),
      },
    });
  }
  return { ...s, evidence };
}

/** A bundle pushed for a task (the envelope's taskId) is that task's evidence from the start: its badge, its links, its gate. */
const bundle: R<"evidence.bundle"> = (s, e) => {
  const b = e.body;
  if (s.evidence[b.bundleId])
    throw conflictRule("evidence_exists", `evidence bundle ${b.bundleId} is already on the tape`);
  const task = e.taskId ? requireTask(s, e.taskId) : null;
  const failed = b.commands.filter((c) => c.exit_code !== 0).length;
  return {
    ...s,
    tasks: task
      ? with_(s.tasks, task.taskId, { ...task, evidenceIds: union(task.evidenceIds, [b.bundleId]) })
      : s.tasks,
    evidence: with_(s.evidence, b.bundleId, {
      ...at(e),
      bundleId: b.bundleId,
      by: e.actor,
      passed: failed === 0,
      commandCount: b.commands.length,
      failedCommands: failed,
      artifactCount: b.artifacts.length,
      manifestHash: b.manifestHash,
      env: { commit: b.env.commit, tools: b.env.tools },
      links: { tasks: task ? [task.taskId] : [], decisions: [], escalations: [], reviews: [], jobs: [] },
    }),
  };
};

const opened: R<"workcell.opened"> = (s, e) => {
  const m = e.body.manifest;
  if (s.workcells[m.workcell_id])
    throw conflictRule("workcell_exists", `workcell ${m.workcell_id} is already open`);
  const taskId = e.taskId ?? (s.tasks[m.issue.id] ? m.issue.id : null);
  if (e.taskId) requireTask(s, e.taskId);
  const wc: Workcell = {
    ...at(e),
    workcellId: m.workcell_id,
    issueId: m.issue.id,
    taskId,
    title: m.issue.title,
    forbiddenPaths: m.issue.forbidden_paths,
    maxDiffLines: m.max_diff_lines ?? null,
    gates: Object.keys(m.quality_gates),
    proof: null,
  };
  const tasks = taskId
    ? with_(s.tasks, taskId, {
        ...s.tasks[taskId]!,
        workcellIds: union(s.tasks[taskId]!.workcellIds, [wc.workcellId]),
      })
    : s.tasks;
  return { ...s, tasks, workcells: with_(s.workcells, wc.workcellId, wc) };
};

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && new Set([...a, ...b]).size === new Set(a).size;

/** The proof must agree with itself and with the manifest it answers; what it reports is projected for the gate badges. */
const proof: R<"workcell.proof"> = (s, e) => {
  const p = e.body.proof;
  const wc = s.workcells[p.workcell_id];
  if (!wc)
    throw invalidRule(
      "unknown_workcell",
      `workcell ${p.workcell_id} was never opened (POST its manifest first)`,
    );
  if (wc.proof) throw conflictRule("proof_exists", `workcell ${wc.workcellId} already has its proof`);
  if (p.issue_id !== wc.issueId)
    throw invalidRule(
      "proof_issue_mismatch",
      `proof is for issue ${p.issue_id}, the workcell for issue ${wc.issueId}`,
    );
  const gates = Object.entries(p.verification.gates);
  const failing = gates.filter(([, g]) => !g.passed).map(([name]) => name);
  if (p.verification.all_passed !== (failing.length === 0)) {
    throw invalidRule(
      "proof_inconsistent",
      `verification.all_passed is ${p.verification.all_passed} but failing gates are [${failing.join(", ")}]`,
    );
  }
  if (!sameSet(p.verification.blocking_failures, failing)) {
    throw invalidRule(
      "proof_inconsistent",
      `verification.blocking_failures must list exactly the failing gates [${failing.join(", ")}]`,
    );
  }
  if (p.patch.diff_stats.files_changed !== p.patch.files_modified.length) {
    throw invalidRule(
      "proof_inconsistent",
      `patch.diff_stats.files_changed (${p.patch.diff_stats.files_changed}) differs from files_modified (${p.patch.files_modified.length})`,
    );
  }
  const touched = p.patch.files_modified.filter((f) =>
    wc.forbiddenPaths.some((fp) => f === fp || f.startsWith(fp.endsWith("/") ? fp : `${fp}/`)),
  );
  if (!sameSet(touched, p.patch.forbidden_path_violations)) {
    throw invalidRule(
      "forbidden_paths_misreported",
      `patch.forbidden_path_violations must be [${touched.join(", ")}] for this manifest's forbidden paths`,
    );
  }
  const diffLines = p.patch.diff_stats.insertions + p.patch.diff_stats.deletions;
  const summary: ProofSummary = {
    ...at(e),
    status: p.status,
    allPassed: p.verification.all_passed,
    failingGates: failing,
    forbiddenPathViolations: touched,
    diffLines,
    overDiffBudget: wc.maxDiffLines !== null && diffLines > wc.maxDiffLines,
    risk: p.risk_classification ?? null,
    confidence: p.confidence ?? null,
    followUps: p.follow_ups?.length ?? 0,
  };
  return { ...s, workcells: with_(s.workcells, wc.workcellId, { ...wc, proof: summary }) };
};

/** Why approving a task must wait: a linked proof or evidence bundle that failed. */
export function failingGates(s: PodState, taskId: string): string[] {
  const task = s.tasks[taskId];
  if (!task) return [];
  const reasons: string[] = [];
  for (const id of task.workcellIds) {
    const p = s.workcells[id]?.proof;
    if (p && (!p.allPassed || p.forbiddenPathViolations.length || p.overDiffBudget)) {
      reasons.push(
        `workcell ${id}: ${[...p.failingGates.map((g) => `${g} failed`), ...p.forbiddenPathViolations.map((f) => `touches forbidden ${f}`), ...(p.overDiffBudget ? ["diff over budget"] : [])].join(", ")}`,
      );
    }
  }
  for (const id of task.evidenceIds) {
    const ev = s.evidence[id];
    if (ev && !ev.passed) reasons.push(`evidence ${id}: ${ev.failedCommands} command(s) failed`);
  }
  return reasons;
}

export const evidenceReducers = {
  "evidence.bundle": bundle,
  "workcell.opened": opened,
  "workcell.proof": proof,
} satisfies Partial<Reducers>;
