import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { adminHeaders, createPod, ev, expect, postEvents } from "./fixtures";

const seed = (name: string) =>
  JSON.parse(readFileSync(join(process.cwd(), "server/testing/seed-examples", name), "utf8"));
const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const bundle = (bundleId: string, exitCode: number, taskId?: string) =>
  ev(
    "evidence.bundle",
    "impl",
    {
      bundleId,
      commands: [{ command: "npm test", exit_code: exitCode, duration_ms: 1200 }],
      artifacts: [{ path: "logs/test.log", sha256: sha(bundleId), size: 10 }],
      env: { commit: "0123456789abcdef0123456789abcdef01234567", tools: { node: "20" } },
      manifestHash: sha(`m-${bundleId}`),
    },
    taskId ? { taskId } : {},
  );

/**
 * A pod with something on every tab: a task in review with its review, evidence and a proof
 * (task 42, the workcell of server/testing/seed-examples/), an escalation about it with options and evidence, a delivered
 * job waiting for acceptance (EUR 250), a run, an agent session's turn with its usage, and a long
 * unbroken id to test narrow screens.
 */
export async function seedRichPod(request: APIRequestContext) {
  const pod = await createPod(request);
  await postEvents(request, pod.id, [
    ev("member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "Implementer" }),
    ev("member.joined", "admin", { memberId: "rev", kind: "agent", displayName: "Reviewer" }),
    ev("pod.scope_agreed", "admin", { scope: "Ship the login endpoint", successCriteria: ["tests pass"] }),
    ev("pod.started", "admin", {}),
    ev("task.added", "impl", { taskId: "42", description: "Login endpoint" }),
    ev("task.added", "impl", {
      taskId: `long-${"x".repeat(80)}`,
      description: `A task with a very long id: ${"y".repeat(70)}`,
    }),
  ]);
  expect(
    (
      await request.post(`/api/v1/pods/${pod.id}/workcells`, {
        data: seed("manifest.json"),
        headers: adminHeaders,
      })
    ).status(),
  ).toBe(201);
  expect(
    (
      await request.post(`/api/v1/pods/${pod.id}/workcells/wc-42-20250115T143022Z/proof`, {
        data: seed("proof.json"),
        headers: adminHeaders,
      })
    ).status(),
  ).toBe(201);
  await postEvents(request, pod.id, [
    bundle("ev-login", 0, "42"),
    bundle("ev-job", 1),
    ev("task.updated", "impl", { taskId: "42", status: "in_progress" }),
    ev("task.review_requested", "impl", { taskId: "42", evidenceIds: ["ev-login"] }),
    ev("review", "rev", { taskId: "42", verdict: "approve", comments: "Rate limit verified by hand" }),
    ev("escalation", "impl", {
      escalationId: "q-deploy",
      kind: "risk_tolerance",
      question: "Deploy the login endpoint on Friday?",
      options: ["Yes", "Wait for Monday"],
      taskId: "42",
      evidenceIds: ["ev-login"],
    }),
    ev("job.posted", "admin", {
      jobId: "j-audit",
      scope: "Security audit",
      constraints: ["no prod access"],
      acceptanceTests: ["no high findings open"],
      settlement: { amount: 250, currency: "EUR", terms: "on acceptance" },
    }),
    ev("job.funded", "admin", { jobId: "j-audit" }),
    ev("job.delivered", "impl", { jobId: "j-audit", evidenceIds: ["ev-job"] }),
    ev("run.started", "impl", { runId: "r1", workItemId: "42", mood: "CURIOUS" }),
    // A Claude Code session: a turn of tool calls (one failed, one gated) that the checkpoint ends, and its usage.
    ...[
      ev("session.started", "impl", {
        via: "claude-code",
        model: "claude-sonnet-4-5",
        cwd: "/home/dev/login-api",
        source: "startup",
      }),
      ev("prompt.submitted", "impl", { text: "Draft the login endpoint", chars: 24 }),
      ev("tool.call", "impl", {
        toolUseId: "tu-1",
        tool: "Read",
        phase: "started",
        input: "src/routes/login.ts",
      }),
      ev("tool.call", "impl", { toolUseId: "tu-1", tool: "Read", phase: "succeeded", durationMs: 12 }),
      ev("tool.call", "impl", {
        toolUseId: "tu-2",
        tool: "Bash",
        phase: "started",
        input: "npm test",
        gate: { decision: "allow", by: "person" },
      }),
      ev("tool.call", "impl", {
        toolUseId: "tu-2",
        tool: "Bash",
        phase: "failed",
        error: "1 failing",
        durationMs: 4200,
      }),
      ev("usage.reported", "impl", {
        model: "claude-sonnet-4-5",
        inputTokens: 12000,
        outputTokens: 900,
        cacheReadTokens: 30000,
        costUsd: 0.0542,
        source: "transcript",
      }),
    ].map((e) => ({ ...e, sessionId: "s-login" })),
    ev(
      "checkpoint",
      "impl",
      { completed: ["Login endpoint drafted"], next: ["Review"], blocked: [] },
      { sessionId: "s-login" },
    ),
  ]);
  return pod;
}
