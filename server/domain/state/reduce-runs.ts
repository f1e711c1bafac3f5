// Runs are transactions (docs/protocol/runs-and-notes.md): a verified commit or a clean discard,
// exactly once; only the director (chair or human) verifies as director and commits.
import type { PodState, Run } from "./pod-state";
import { at, conflictRule, invalidRule, type R, type Reducers, requireDecider, with_ } from "./rules";

function openRun(s: PodState, runId: string): Run {
  const run = s.runs[runId];
  if (!run) throw invalidRule("unknown_run", `run ${runId} does not exist in this pod`);
  if (run.status !== "running")
    throw conflictRule("run_ended", `run ${runId} already ended (${run.status}); a run ends once`);
  return run;
}

const started: R<"run.started"> = (s, e) => {
  if (s.runs[e.body.runId]) throw conflictRule("run_exists", `run ${e.body.runId} already exists`);
  const run: Run = {
    ...at(e),
    runId: e.body.runId,
    workItemId: e.body.workItemId,
    mood: e.body.mood,
    startedBy: e.actor,
    status: "running",
    selfVerified: null,
    directorVerified: null,
    commit: null,
    discardReason: null,
    noteSeqs: [],
  };
  return { ...s, runs: with_(s.runs, run.runId, run) };
};

const verified: R<"run.verified"> = (s, e) => {
  const run = openRun(s, e.body.runId);
  if (e.body.by === "director") requireDecider(s, e.actor, "verify as director");
  const next =
    e.body.by === "self"
      ? { ...run, selfVerified: e.body.passed }
      : { ...run, directorVerified: e.body.passed };
  return { ...s, runs: with_(s.runs, run.runId, next) };
};

const committed: R<"run.committed"> = (s, e) => {
  const run = openRun(s, e.body.runId);
  requireDecider(s, e.actor, "commit a run (only the director commits)");
  if (run.selfVerified !== true || run.directorVerified !== true) {
    throw conflictRule(
      "run_not_verified",
      `run ${run.runId} commits only after passing self and director verification (self: ${run.selfVerified}, director: ${run.directorVerified})`,
    );
  }
  return { ...s, runs: with_(s.runs, run.runId, { ...run, status: "committed", commit: e.body.commit }) };
};

const discarded: R<"run.discarded"> = (s, e) => {
  const run = openRun(s, e.body.runId);
  return {
    ...s,
    runs: with_(s.runs, run.runId, { ...run, status: "discarded", discardReason: e.body.reason }),
  };
};

export const runReducers = {
  "run.started": started,
  "run.verified": verified,
  "run.committed": committed,
  "run.discarded": discarded,
} satisfies Partial<Reducers>;
