// `podwatch mcp` driven by the MCP SDK's own client over stdio: it lists the
// tools, and an agent takes a task from added to in_review with evidence.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../../server/testing/test-server";
import { PODWATCH_BIN } from "../../server/testing/run-cli";

type ToolReply = { content: { type: string; text: string }[]; isError?: boolean };

describe("podwatch mcp", () => {
  let s: TestServer;
  let podId: string;
  let client: Client;
  const dir = mkdtempSync(join(tmpdir(), "podwatch-mcp-"));
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolReply;
  const value = async (name: string, args: Record<string, unknown> = {}) => {
    const r = await call(name, args);
    expect(r.isError, r.content[0]?.text).toBeFalsy();
    return JSON.parse(r.content[0]!.text);
  };

  beforeAll(async () => {
    s = await startTestServer("sqlite", { PODWATCH_DEADLINE_MIN_MS: "100" }); // test only: deadlines seconds ahead
    const pod = await agentPod(s.url, "mcp", { coder: "implementer", tester: "reviewer" });
    podId = pod.podId;
    await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: "ann@example.com",
      kind: "human",
      displayName: "Ann",
      roles: ["approver"],
    });
    const token = pod.tokens.coder!;
    // Exactly what the README's MCP config gives the client: a command, its args, and the environment.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [PODWATCH_BIN, "mcp"],
      env: {
        PATH: process.env.PATH!,
        PODWATCH_URL: s.url,
        PODWATCH_TOKEN: token,
        PODWATCH_EVIDENCE_ROOT: dir,
      },
      stderr: "pipe",
    });
    client = new Client({ name: "podwatch-test", version: "1.0.0" });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    await s?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the plan tools and handoff, and the rest of the protocol", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "plan_add_task",
        "plan_update_task",
        "plan_read",
        "handoff",
        "checkpoint",
        "note",
        "escalate",
        "submit_evidence",
        "submit_proof",
        "read_tape",
        "request_review",
      ]),
    );
    const add = tools.find((t) => t.name === "plan_add_task")!;
    expect(add.inputSchema).toMatchObject({ type: "object", required: ["description"] });
    expect(tools.find((t) => t.name === "handoff")!.inputSchema.required).toEqual([
      "destination_agent",
      "reason",
    ]);
  });

  it("drives a task from added to in_review with evidence, and the tape shows it", async () => {
    const { task_id } = await value("plan_add_task", {
      description: "Write the main application logic in app.py.",
    });
    expect(task_id).toBe("task_001");
    await value("plan_update_task", {
      task_id,
      status: "in_progress",
      metadata: { started_at: "2026-11-22T10:05:00Z" },
    });
    await value("note", {
      kind: "HYPOTHESIS",
      text: "One module is enough",
      fields: { test: "unit tests", budget: "30 min" },
      task_id,
    });
    writeFileSync(
      join(dir, "commands.jsonl"),
      `${JSON.stringify({ command: "pytest", exit_code: 0, duration_ms: 900 })}\n`,
    );
    writeFileSync(join(dir, "pytest.log"), "3 passed in 0.9s\n");
    const evidence = await value("submit_evidence", { dir: ".", task_id, commit: "abc123" }); // relative to the evidence root
    expect(evidence).toMatchObject({ artifacts: 2, uploaded: 2 });
    // Pushed for the task: on its card (the evidence badge) and linked from the bundle, before any review request.
    const pushed = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(pushed.board[0]).toMatchObject({ taskId: task_id, evidenceIds: [evidence.bundle_id] });
    expect(
      pushed.evidence.find((e: { bundleId: string }) => e.bundleId === evidence.bundle_id).links.tasks,
    ).toEqual([task_id]);
    await value("checkpoint", { completed: ["app.py written"], next: ["review"], task_id });
    await value("request_review", { task_id, evidence_ids: [evidence.bundle_id] });
    await value("handoff", {
      destination_agent: "tester",
      reason: "Code implementation is complete, ready for testing.",
    });

    const plan = await value("plan_read");
    expect(plan.tasks).toEqual([
      expect.objectContaining({
        task_id,
        status: "in_review",
        metadata: { started_at: "2026-11-22T10:05:00Z" },
      }),
    ]);
    const state = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
    expect(state.board[0]).toMatchObject({
      taskId: task_id,
      status: "in_review",
      implementer: "coder",
      evidenceIds: [evidence.bundle_id],
    });
    expect(state.activeAgent).toBe("tester");
    const tape = await value("read_tape", { after: 0, limit: 50 });
    expect(
      tape.events
        .filter((e: { actor: string }) => e.actor === "coder")
        .map((e: { type: string; actor: string }) => `${e.actor}:${e.type}`),
    ).toEqual(
      [
        "task.added",
        "task.updated",
        "note",
        "evidence.bundle",
        "checkpoint",
        "task.review_requested",
        "handoff",
      ].map((t) => `coder:${t}`),
    );
  });

  it("answers refusals as tool errors a model can act on", async () => {
    const r = await call("plan_update_task", { task_id: "task_404", status: "blocked" });
    expect(r.isError).toBe(true);
    expect(r.content[0]!.text).toContain("task task_404 does not exist");
    const bad = await call("note", { kind: "HYPOTHESIS", text: "no test" });
    expect([bad.isError, bad.content[0]!.text]).toEqual([true, expect.stringContaining("body.test")]);
    const seqBefore = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.seq;
    const unknownTask = await call("submit_evidence", { dir: ".", task_id: "task_404" });
    expect([unknownTask.isError, unknownTask.content[0]!.text]).toEqual([
      true,
      expect.stringContaining("task task_404 does not exist"),
    ]);
    const empty = await call("checkpoint", {});
    expect([empty.isError, empty.content[0]!.text]).toEqual([true, expect.stringContaining("at least one")]);
    const blank = await call("checkpoint", { completed: ["   "] });
    expect([blank.isError, blank.content[0]!.text]).toEqual([true, expect.stringContaining("blank")]);
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.seq).toBe(seqBefore); // nothing stored
    const missing = await call("submit_evidence", { dir: join(dir, "missing") });
    expect([missing.isError, missing.content[0]!.text]).toEqual([
      true,
      expect.stringContaining("not a folder"),
    ]);
    for (const outside of ["/etc", "..", join(dir, "..", "elsewhere")]) {
      const escape = await call("submit_evidence", { dir: outside });
      expect([escape.isError, escape.content[0]!.text], outside).toEqual([
        true,
        expect.stringContaining("outside the evidence root"),
      ]);
    }
  });

  it("a wait that runs out says so; wait_for_answer picks the answer up later", async () => {
    const first = await value("escalate", {
      question: "Which region?",
      kind: "external_input",
      wait: true,
      timeout_seconds: 0.5,
    });
    expect(first).toMatchObject({ answered: false, note: expect.stringContaining("wait_for_answer") });
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "escalation.answered",
      actor: "ann@example.com",
      body: { escalationId: first.escalation_id, answer: "eu-west" },
    });
    expect(await value("wait_for_answer", { escalation_id: first.escalation_id })).toEqual({
      escalation_id: first.escalation_id,
      answered: true,
      answer: "eu-west",
      by: "ann@example.com",
    });
    const unknown = await call("wait_for_answer", { escalation_id: "nope" });
    expect([unknown.isError, unknown.content[0]!.text]).toEqual([
      true,
      expect.stringContaining("escalation nope does not exist"),
    ]);
    expect((await call("escalate", { question: "x", wait: true, timeout_seconds: 120 })).isError).toBe(true); // over the 50 s cap
  });

  it("escalates and waits for the human's answer", async () => {
    const pending = call("escalate", {
      question: "Ship on Friday?",
      kind: "intent",
      options: ["Yes", "No"],
      wait: true,
      timeout_seconds: 30,
    });
    const asked = async () =>
      (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.escalations.find(
        (e: { question: string }) => e.question === "Ship on Friday?",
      );
    await expect.poll(asked, { timeout: 20_000 }).toBeTruthy();
    const { escalationId } = await asked();
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "escalation.answered",
      actor: "ann@example.com",
      body: { escalationId, answer: "No, Monday" },
    });
    const r = await pending;
    expect(JSON.parse(r.content[0]!.text)).toMatchObject({
      escalation_id: escalationId,
      answered: true,
      answer: "No, Monday",
      by: "ann@example.com",
    });
  });

  it("a deadline's default answer reaches a waiting escalate, and wait_for_answer, as the answer", async () => {
    const at = new Date(Date.now() + 1500).toISOString();
    const r = await value("escalate", {
      question: "Merge now?",
      kind: "intent",
      options: ["Yes", "No"],
      deadline_at: at,
      then: "answer",
      default_answer: "No",
      wait: true,
      timeout_seconds: 30,
    });
    expect(r).toMatchObject({ answered: true, answer: "No", by: "podwatch", by_deadline: true });
    expect(await value("wait_for_answer", { escalation_id: r.escalation_id })).toMatchObject({
      answered: true,
      answer: "No",
      by: "podwatch",
      by_deadline: true,
    });
    const bad = await call("escalate", {
      question: "x",
      options: ["Yes", "No"],
      deadline_minutes: 5,
      then: "answer",
      default_answer: "Maybe",
    });
    expect([bad.isError, bad.content[0]!.text]).toEqual([
      true,
      expect.stringContaining("one of the options"),
    ]);
  });
});
