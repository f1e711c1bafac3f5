// What the demo pod does: the whole protocol, episode after episode — scope,
// plan gates, a plan, tasks through review loops (one sent back, then
// approved), evidence, runs (one committed, one discarded), a workcell whose
// proof has a failing gate, a handoff, a budget hit, an escalation waiting for
// a human, a contracted job delivered and awaiting acceptance, and the
// implementer's session (tool calls, tokens and cost) against the pod's budget. Pure: a
// generator of steps; start-demo.ts posts them through the public HTTP API.
import { sha256Hex as sha } from "../../server/wire/hash";

export type DemoStep = {
  /** Which endpoint carries it: the event API, or a file-format endpoint (plan, workcell, proof). */
  via: "events" | "plan" | "workcell" | "proof";
  type: string;
  actor: string;
  role?: string;
  body: Record<string, unknown>;
  taskId?: string;
  runId?: string;
  sessionId?: string;
  /** May be refused because a human got there first (e.g. decided the task): then it is skipped quietly. */
  optional?: boolean;
};

const DEMO_MEMBERS = [
  { memberId: "orchestrator-1", displayName: "Orchestrator", role: "orchestrator" },
  { memberId: "implementer-1", displayName: "Implementer", role: "implementer" },
  { memberId: "reviewer-1", displayName: "Reviewer", role: "reviewer" },
  { memberId: "chair-1", displayName: "Chair", role: "chair" },
  { memberId: "guardian-1", displayName: "Contract Guardian", role: "contract_guardian" },
  { memberId: "cost-1", displayName: "Cost Controller", role: "cost_controller" },
] as const;

const TOPICS = [
  [
    "Parse the task manifest and reject unknown fields",
    "Stream the command transcript into the evidence bundle",
    "Document the manifest format",
  ],
  [
    "Add retry with jitter to the webhook sender",
    "Cap retries by a per-tenant budget",
    "Expose retry metrics",
  ],
  ["Cache plan reads per pod", "Invalidate the cache on plan.imported", "Benchmark plan reads"],
];

const O = { actor: "orchestrator-1", role: "orchestrator" };
const I = { actor: "implementer-1", role: "implementer" };
const R = { actor: "reviewer-1", role: "reviewer" };
const C = { actor: "chair-1", role: "chair" };
const ev = (
  who: { actor: string; role: string },
  type: string,
  body: Record<string, unknown>,
  extra: Partial<DemoStep> = {},
): DemoStep => ({ via: "events", type, ...who, body, ...extra });

function bundle(id: string, commands: [string, number, number][]): DemoStep {
  const artifacts = commands.map(([c], i) => ({
    path: `logs/${i}.log`,
    sha256: sha(`${id}:${c}`),
    size: 1200 + i * 311,
  }));
  return ev(I, "evidence.bundle", {
    bundleId: id,
    commands: commands.map(([command, exit_code, duration_ms]) => ({ command, exit_code, duration_ms })),
    artifacts,
    env: { commit: sha(id).slice(0, 12), tools: { node: "20.20.2", npm: "11.19.1" } },
    manifestHash: sha(JSON.stringify(artifacts)),
  });
}

/** The members the demo's admin adds (POST /members) before any agent speaks. */
export const demoMemberRequests = () =>
  DEMO_MEMBERS.map((m) => ({
    memberId: m.memberId,
    kind: "agent" as const,
    displayName: m.displayName,
    roles: [m.role],
  }));

export function* setupSteps(): Generator<DemoStep> {
  yield ev(C, "pod.scope_agreed", {
    scope: "Harden the agent work pipeline: manifests, evidence and retries",
    successCriteria: ["Every task approved with evidence", "No forbidden path touched", "CI green"],
  });
  yield ev(O, "pod.started", {});
  // The pod's cost budget: the server reports it crossed after a few episodes (an inbox item).
  yield ev({ actor: "cost-1", role: "cost_controller" }, "budget.set", {
    budgetId: "demo-cost",
    metric: "cost_usd",
    limit: DEMO_COST_BUDGET_USD,
    then: "notify",
  });
}

/** The demo pod's cost budget; each episode's session costs about 0.62 USD. */
export const DEMO_COST_BUDGET_USD = 2.5;
const MODEL = "claude-sonnet-4-5";

/** The implementer's session for task 1 of episode k: tool calls in pairs, then its tokens and cost. */
function* sessionSteps(k: number, taskId: string): Generator<DemoStep> {
  const sessionId = `demo-session-${k}`;
  const on = { sessionId, taskId };
  yield ev(I, "session.started", { via: "demo", model: MODEL, cwd: "/work/pipeline", source: "startup" }, on);
  const calls: [string, string, boolean][] = [
    ["Read", "src/manifest.ts", true],
    ["Bash", "npm test -- manifest", false],
    ["Edit", "src/manifest.ts", true],
    ["Bash", "npm test -- manifest", true],
  ];
  for (const [i, [tool, input, ok]] of calls.entries()) {
    const toolUseId = `toolu-${k}-${i}`;
    yield ev(I, "tool.call", { toolUseId, tool, phase: "started", input }, on);
    yield ev(
      I,
      "tool.call",
      {
        toolUseId,
        tool,
        phase: ok ? "succeeded" : "failed",
        durationMs: 400 + i * 900,
        ...(ok ? {} : { error: "1 test failed" }),
      },
      on,
    );
  }
  yield ev(
    I,
    "usage.reported",
    {
      model: MODEL,
      inputTokens: 41_200 + k * 10,
      outputTokens: 6_300,
      cacheReadTokens: 120_000,
      costUsd: 0.62,
      source: "agent",
    },
    on,
  );
  yield ev(I, "session.ended", { reason: "task handed to review" }, on);
}

/** One episode; `k` keeps ids unique across episodes and restarts. `openItems` lets it skip asking more of humans than they answered. */
export function* episodeSteps(k: number, openItems = 0): Generator<DemoStep> {
  const [t1, t2, t3] = [`e${k}-t1`, `e${k}-t2`, `e${k}-t3`];
  const [d1, d2, d3] = TOPICS[k % TOPICS.length]!;
  // Keep the board readable: work of the last episode that no human decided is withdrawn.
  if (k > 1)
    yield ev(
      O,
      "task.updated",
      {
        taskId: `e${k - 1}-t2`,
        status: "cancelled",
        metadata: { note: "withdrawn: superseded by the next plan" },
      },
      { optional: true },
    );
  yield ev({ actor: "cost-1", role: "cost_controller" }, "plan.review", {
    verdict: "BLOCK",
    planId: `plan-${k}`,
    rationale: "Three tasks at 45 min each exceed the 2 h budget",
  });
  yield ev({ actor: "guardian-1", role: "contract_guardian" }, "plan.review", {
    verdict: "APPROVE",
    planId: `plan-${k}`,
    rationale: "No contract changes",
  });
  yield ev({ actor: "cost-1", role: "cost_controller" }, "plan.review", {
    verdict: "APPROVE",
    planId: `plan-${k}`,
    rationale: "Re-estimated at 1 h 40 min",
  });
  yield {
    via: "plan",
    type: "plan.imported",
    ...C,
    body: {
      plan: {
        tasks: [
          { task_id: t1, description: d1, status: "pending", metadata: { estimate_min: 30 } },
          {
            task_id: t2,
            description: d2,
            status: "pending",
            metadata: { estimate_min: 45 },
            depends_on: [t1],
          },
          { task_id: t3, description: d3, status: "pending", metadata: { estimate_min: 20 } },
        ],
      },
    },
  };
  yield ev(O, "checkpoint", {
    completed: [`Plan ${k} imported`],
    next: [`implementer-1 takes ${t1}`],
    blocked: [],
  });

  // Task 1: a committed run, sent back once by review, then approved.
  yield ev(I, "task.updated", { taskId: t1, status: "in_progress" });
  yield ev(I, "run.started", { runId: `r${k}a`, workItemId: t1, mood: "CURIOUS" });
  yield ev(
    I,
    "note",
    { kind: "OBSERVATION", text: `Read the code paths touched by "${d1}": two call sites, no tests yet.` },
    { runId: `r${k}a`, taskId: t1 },
  );
  yield ev(
    I,
    "note",
    {
      kind: "HYPOTHESIS",
      text: "A focused change in one module is enough.",
      test: "unit tests + one integration run",
      budget: "45 min",
    },
    { runId: `r${k}a` },
  );
  yield* sessionSteps(k, t1);
  yield bundle(`ev-${k}-1`, [
    ["npm test -- manifest", 0, 4523],
    ["npm run lint", 0, 1200],
    ["npm run typecheck", 0, 3100],
  ]);
  yield ev(I, "run.verified", {
    runId: `r${k}a`,
    by: "self",
    passed: true,
    checks: [
      { name: "unit", passed: true },
      { name: "lint", passed: true },
    ],
  });
  yield ev(
    I,
    "note",
    {
      kind: "REQUEST_VERIFY",
      text: "Self-verification green; please verify as director.",
      REFERENCES: [`ev-${k}-1`],
    },
    { runId: `r${k}a` },
  );
  yield ev(C, "run.verified", {
    runId: `r${k}a`,
    by: "director",
    passed: true,
    checks: [{ name: "independent re-run", passed: true }],
  });
  yield ev(C, "run.committed", { runId: `r${k}a`, commit: sha(`commit-${k}`).slice(0, 12) });
  yield ev(I, "task.review_requested", { taskId: t1, evidenceIds: [`ev-${k}-1`] });
  yield ev(R, "review", {
    taskId: t1,
    verdict: "changes_requested",
    comments: "Empty input is not covered.",
    evidenceIds: [`ev-${k}-1`],
  });
  yield ev(I, "checkpoint", {
    completed: ["Covered the empty-input edge case"],
    next: ["Re-request review"],
    blocked: [],
    taskId: t1,
  });
  yield bundle(`ev-${k}-2`, [["npm test -- manifest", 0, 4710]]);
  yield ev(I, "task.review_requested", { taskId: t1, evidenceIds: [`ev-${k}-2`] });
  yield ev(R, "review", {
    taskId: t1,
    verdict: "approve",
    comments: "Reproduced from scratch: green.",
    evidenceIds: [`ev-${k}-2`],
  });
  yield ev(C, "decision", {
    subject: { kind: "task", id: t1 },
    verdict: "approve",
    tieBreaker: "text_spec",
    rationale: "Meets the acceptance criteria; evidence reproduced.",
    evidenceIds: [`ev-${k}-2`],
  });
  yield ev(I, "handoff", {
    to: "reviewer-1",
    reason: `${t1} is done; ${t2} needs a second pair of eyes on the design`,
  });

  // Task 2: a discarded run, then a workcell whose proof fails a gate.
  yield ev(I, "task.updated", { taskId: t2, status: "in_progress" });
  yield ev(I, "run.started", { runId: `r${k}b`, workItemId: t2, mood: "SKEPTICAL" });
  yield ev(
    I,
    "note",
    {
      kind: "HYPERTHESIS",
      text: "The retry path was never exercised under load.",
      blindSpot: "concurrency",
      bound: "one load run",
    },
    { runId: `r${k}b` },
  );
  yield ev(I, "run.verified", {
    runId: `r${k}b`,
    by: "self",
    passed: false,
    checks: [{ name: "unit", passed: false }],
  });
  yield ev(I, "run.discarded", {
    runId: `r${k}b`,
    reason: "Self-verification failed; worktree discarded, requeued as a smaller work item.",
  });
  yield {
    via: "workcell",
    type: "workcell.opened",
    ...O,
    body: {
      manifest: {
        schema_version: "1.0.0",
        workcell_id: `wc-${t2}`,
        issue: {
          id: t2,
          title: d2,
          description: d2,
          acceptance_criteria: ["Tests pass"],
          context_files: ["src/retry.ts"],
          forbidden_paths: ["src/secrets.ts"],
        },
        toolchain: "codex",
        toolchain_config: { model: "o3", timeout_minutes: 30 },
        quality_gates: { test: "npm test", lint: "npm run lint" },
        speculate_mode: false,
        max_diff_lines: 500,
        branch_name: `wc/${t2}`,
      },
    },
  };
  yield {
    via: "proof",
    type: "workcell.proof",
    ...I,
    body: {
      proof: {
        schema_version: "1.0.0",
        workcell_id: `wc-${t2}`,
        issue_id: t2,
        status: "failed",
        patch: {
          branch: `wc/${t2}`,
          base_commit: sha(`b${k}`).slice(0, 40),
          head_commit: sha(`h${k}`).slice(0, 40),
          diff_stats: { files_changed: 2, insertions: 88, deletions: 9 },
          files_modified: ["src/retry.ts", "tests/retry.test.ts"],
          forbidden_path_violations: [],
        },
        commands_executed: [
          { command: "npm test", exit_code: 1, duration_ms: 5120 },
          { command: "npm run lint", exit_code: 0, duration_ms: 900 },
        ],
        verification: {
          gates: {
            test: { passed: false, exit_code: 1, duration_ms: 5120 },
            lint: { passed: true, exit_code: 0, duration_ms: 900 },
          },
          all_passed: false,
          blocking_failures: ["test"],
        },
        confidence: 0.41,
        risk_classification: "high",
        risk_factors: ["Changes retry timing"],
        follow_ups: [{ title: "Flaky timer in retry test", priority: "P2", discovered_from: t2 }],
        metadata: {
          toolchain: "codex",
          model: "o3",
          started_at: "2026-11-22T10:00:00Z",
          completed_at: "2026-11-22T10:20:00Z",
          duration_ms: 1200000,
          tokens_used: 40211,
          cost_usd: 0.81,
        },
      },
    },
    taskId: t2,
  };
  yield ev(I, "task.review_requested", { taskId: t2 });
  yield ev(R, "review", {
    taskId: t2,
    verdict: "approve",
    comments: "Design is right; the failing test looks like a timer flake.",
  });
  yield ev(O, "budget.exceeded", { budget: "max_outbox_prompts", limit: 20, used: 21 });
  yield ev(O, "checkpoint", {
    completed: [`${t1} approved`],
    next: [`${t2} awaits a human decision (failing test gate)`],
    blocked: ["Proof for " + t2 + " has a failing gate"],
  });

  if (openItems < 4) {
    yield ev(I, "escalation", {
      escalationId: `esc-${k}`,
      kind: "risk_tolerance",
      question: "Retries can double-send a webhook on timeout. Is at-least-once delivery acceptable?",
      options: ["Yes, receivers dedupe", "No, make it exactly-once"],
      taskId: t2,
    });
    yield ev(C, "job.posted", {
      jobId: `job-${k}`,
      scope: "Security review of the retry path",
      constraints: ["No production access"],
      acceptanceTests: ["Threat model written", "No high findings open"],
      settlement: { amount: 400, currency: "EUR", terms: "Released on acceptance" },
    });
    yield ev(C, "job.funded", { jobId: `job-${k}` });
    yield bundle(`ev-${k}-job`, [["semgrep --config auto", 0, 20400]]);
    yield ev(I, "job.delivered", { jobId: `job-${k}`, evidenceIds: [`ev-${k}-job`] });
  }
  yield ev(I, "task.updated", { taskId: t3, status: "in_progress" });
  yield ev(
    I,
    "note",
    { kind: "STATUS", text: `Working on "${d3}" while ${t2} waits for a decision.` },
    { taskId: t3 },
  );
  yield ev(I, "checkpoint", {
    completed: [`Drafted ${t3}`],
    next: ["Ask for review"],
    blocked: [],
    taskId: t3,
  });
  yield ev(R, "handoff", {
    to: "implementer-1",
    reason: `Design review of ${t2} done; back to implementation`,
  });
  yield bundle(`ev-${k}-3`, [["npm test -- docs", 0, 2210]]);
  yield ev(I, "task.review_requested", { taskId: t3, evidenceIds: [`ev-${k}-3`] });
  yield ev(R, "review", {
    taskId: t3,
    verdict: "approve",
    comments: "Clear and complete.",
    evidenceIds: [`ev-${k}-3`],
  });
  yield ev(C, "decision", {
    subject: { kind: "task", id: t3 },
    verdict: "approve",
    tieBreaker: "timebox",
    rationale: "Good enough to ship; follow-ups filed.",
    evidenceIds: [`ev-${k}-3`],
  });
}
