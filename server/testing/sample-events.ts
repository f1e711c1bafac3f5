// One valid event of every type, for fuzzing: a type added to the schemas
// without a sample here does not compile. Actors and ids match the team the
// fuzz test sets up (impl-1, rev-1, chair-1); the file-format documents are those of seed-examples/.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { EventType } from "../wire/events";

const seed = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, "seed-examples", name), "utf8")) as Record<
    string,
    unknown
  >;
const HASH = "a".repeat(64);

export const SEED_DOCUMENTS = {
  plan: seed("plan.json"),
  manifest: seed("manifest.json"),
  proof: seed("proof.json"),
  handoffStep: seed("handoff-step.json"),
};

export const SAMPLE_BODIES: Record<EventType, { actor: string; body: Record<string, unknown> }> = {
  "pod.scope_agreed": {
    actor: "chair-1",
    body: { scope: "Split the payments module", successCriteria: ["Tests pass"] },
  },
  "pod.started": { actor: "chair-1", body: {} },
  "pod.paused": { actor: "chair-1", body: { reason: "lunch" } },
  "pod.resumed": { actor: "chair-1", body: {} },
  "pod.closed": { actor: "chair-1", body: { reason: "done" } },
  "member.joined": { actor: "chair-1", body: { memberId: "helper-1", kind: "agent", displayName: "Helper" } },
  "access.granted": { actor: "chair-1", body: { memberId: "ana@example.com", access: "approver" } },
  "access.revoked": { actor: "chair-1", body: { memberId: "ana@example.com" } },
  "role.assigned": { actor: "chair-1", body: { memberId: "helper-1", role: "researcher" } },
  "role.rotated": { actor: "chair-1", body: { role: "reviewer", from: "rev-1", to: "helper-1" } },
  "plan.imported": { actor: "impl-1", body: { plan: SEED_DOCUMENTS.plan } },
  "task.added": {
    actor: "impl-1",
    body: { taskId: "t1", description: "Write the parser", dependsOn: [], metadata: { area: "parser" } },
  },
  "task.updated": {
    actor: "impl-1",
    body: { taskId: "t1", status: "in_progress", metadata: { started: "now" } },
  },
  "task.review_requested": { actor: "impl-1", body: { taskId: "t1", evidenceIds: ["ev-1"] } },
  review: { actor: "rev-1", body: { taskId: "t1", verdict: "approve", comments: "fine", evidenceIds: [] } },
  checkpoint: { actor: "impl-1", body: { completed: ["Parser"], next: ["Tests"], blocked: [] } },
  note: {
    actor: "impl-1",
    body: {
      kind: "HYPOTHESIS",
      text: "The cache is stale",
      test: "disable it",
      budget: "10 min",
      BODY: { seen: [1, 2] },
    },
  },
  decision: {
    actor: "chair-1",
    body: { subject: { kind: "task", id: "t1" }, verdict: "approve", rationale: "Reviewed", evidenceIds: [] },
  },
  "plan.review": { actor: "chair-1", body: { verdict: "APPROVE", rationale: "ok" } },
  escalation: {
    actor: "impl-1",
    body: { escalationId: "esc-1", kind: "intent", question: "Ship on Friday?", options: ["Yes", "No"] },
  },
  "escalation.answered": { actor: "ana@example.com", body: { escalationId: "esc-1", answer: "Yes" } },
  handoff: { actor: "impl-1", body: { to: "rev-1", reason: "Ready for review" } },
  "run.started": { actor: "impl-1", body: { runId: "r1", workItemId: "w1", mood: "CURIOUS" } },
  "run.verified": {
    actor: "impl-1",
    body: { runId: "r1", by: "self", passed: true, checks: [{ name: "unit", passed: true }] },
  },
  "run.committed": { actor: "impl-1", body: { runId: "r1", commit: "abc123" } },
  "run.discarded": { actor: "impl-1", body: { runId: "r1", reason: "dead end" } },
  "evidence.bundle": {
    actor: "impl-1",
    body: {
      bundleId: "ev-1",
      commands: [{ command: "npm test", exit_code: 0, duration_ms: 12 }],
      artifacts: [{ path: "logs/test.log", sha256: HASH, size: 10 }],
      env: { commit: "abc123", tools: { node: "20" } },
      manifestHash: HASH,
    },
  },
  "workcell.opened": { actor: "impl-1", body: { manifest: SEED_DOCUMENTS.manifest } },
  "workcell.proof": { actor: "impl-1", body: { proof: SEED_DOCUMENTS.proof } },
  "job.posted": {
    actor: "chair-1",
    body: {
      jobId: "j1",
      scope: "Fix it",
      constraints: [],
      acceptanceTests: ["it works"],
      settlement: { amount: 10, currency: "EUR", terms: "on delivery" },
    },
  },
  "job.funded": { actor: "chair-1", body: { jobId: "j1" } },
  "job.delivered": { actor: "impl-1", body: { jobId: "j1", evidenceIds: ["ev-1"] } },
  "job.settled": { actor: "chair-1", body: { jobId: "j1", outcome: "released" } },
  "budget.set": {
    actor: "chair-1",
    body: { budgetId: "b-tokens", agentId: "impl-1", metric: "tokens", limit: 100000, then: "hold_tools" },
  },
  "budget.exceeded": { actor: "impl-1", body: { budget: "tokens", limit: 100, used: 120 } },
  // Only the server appends these (as podwatch): the API refuses them from every client, which the fuzz test sees too.
  "deadline.passed": {
    actor: "podwatch",
    body: {
      itemId: "escalation:esc-1",
      subject: { kind: "escalation", id: "esc-1" },
      outcome: "answered",
      answer: "Yes",
    },
  },
  "agent.stale": {
    actor: "podwatch",
    body: { agentId: "impl-1", since: "2026-11-22T10:00:00.000Z", cadenceMinutes: 30 },
  },
  "notice.posted": {
    actor: "podwatch",
    body: { noticeId: "n-1", title: "A webhook endpoint was disabled", audience: "admins" },
  },
  "notice.dismissed": { actor: "chair-1", body: { noticeId: "n-1" } },
  "session.started": {
    actor: "impl-1",
    body: {
      via: "claude-code",
      source: "startup",
      model: "claude-sonnet-4-5",
      cwd: "/work/app",
      permissionMode: "default",
    },
  },
  "session.ended": { actor: "impl-1", body: { reason: "prompt_input_exit" } },
  "prompt.submitted": { actor: "impl-1", body: { text: "Fix the failing test", chars: 20 } },
  "tool.call": {
    actor: "impl-1",
    body: { toolUseId: "toolu_01", tool: "Bash", phase: "started", input: "npm test" },
  },
  "agent.notified": {
    actor: "impl-1",
    body: { message: "Claude needs your permission to use Bash", notificationType: "permission_prompt" },
  },
  subagent: {
    actor: "impl-1",
    body: { phase: "stopped", agentId: "agent-1", agentType: "Explore", summary: "Found 3 call sites" },
  },
  "session.compacted": { actor: "impl-1", body: { trigger: "auto" } },
  "usage.reported": {
    actor: "impl-1",
    body: { model: "claude-sonnet-4-5", inputTokens: 1200, outputTokens: 300, source: "transcript" },
  },
  "agent.policy.set": {
    actor: "chair-1",
    body: { rules: [{ id: "push", tool: "Bash", input: "git push*", action: "ask" }] },
  },
  "tool.approval.requested": {
    actor: "impl-1",
    body: {
      requestId: "req-1",
      toolUseId: "toolu_02",
      tool: "Bash",
      input: '{"command":"git push"}',
      deadline: { inMinutes: 5, then: "answer", answer: "deny" },
    },
  },
  "tool.approval.answered": { actor: "chair-1", body: { requestId: "req-1", decision: "allow" } },
  "session.steered": {
    actor: "chair-1",
    body: {
      steerId: "steer-1",
      sessionId: "session-1",
      act: "message",
      text: "Stop, and write the tests first",
    },
  },
  "session.steer.delivered": {
    actor: "impl-1",
    body: { steerId: "steer-1", sessionId: "session-1", via: "PostToolUse", hookId: "hook-1" },
  },
  "session.idle.held": {
    actor: "impl-1",
    body: { sessionId: "session-1", until: "2026-11-26T10:05:00.000Z" },
  },
};
