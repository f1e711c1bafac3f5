// `podwatch mcp`: the pod's tools for any MCP client, over stdio. The seed's
// plan tools and handoff (seed 003) keep their names and argument names;
// the rest mirror the CLI. Every call is one SDK call; a refusal comes back
// as a tool error whose text says what to fix, so the model can retry.
import { resolve } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { pushEvidence } from "../sdk/evidence";
import { PodwatchError } from "../sdk/errors";
import type { PodAgent } from "../sdk/pod-agent";
import { NOTE_KINDS } from "../wire/events";

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };
const ok = (value: unknown): ToolResult => ({ content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value, null, 2) }] });
const failed = (e: unknown): ToolResult => {
  const issues = e instanceof PodwatchError && e.issues.length ? `\n${e.issues.map((i) => `${i.path}: ${i.message}`).join("\n")}` : "";
  return { content: [{ type: "text", text: `${e instanceof PodwatchError ? `${e.code}: ` : ""}${(e as Error).message}${issues}` }], isError: true };
};
const guarded = <A>(f: (a: A) => Promise<unknown>) => async (a: A) => {
  try {
    return ok(await f(a));
  } catch (e) {
    return failed(e);
  }
};

const lines = z.array(z.string()).default([]);
/** What an agent may set with plan_update_task; in_review, done and rejected come from review and decisions. */
const AGENT_SETTABLE = ["pending", "in_progress", "blocked", "cancelled"] as const;

export function createMcpServer(agent: PodAgent, signal?: AbortSignal): McpServer {
  const server = new McpServer({ name: "podwatch", version: "0.1.0" });
  const tool = <S extends z.ZodRawShape>(name: string, description: string, shape: S, run: (a: z.infer<z.ZodObject<S>>) => Promise<unknown>) =>
    server.registerTool(name, { description, inputSchema: shape }, guarded(run as (a: unknown) => Promise<unknown>) as never);

  tool("plan_add_task", "Add a task to the plan with pending status. Returns its task_id.", { description: z.string().min(1), task_id: z.string().optional(), depends_on: z.array(z.string()).optional(), metadata: z.record(z.string(), z.unknown()).optional() }, async (a) => {
    const r = await agent.addTask({ description: a.description, taskId: a.task_id, dependsOn: a.depends_on, metadata: a.metadata });
    return { task_id: r.taskId, seq: r.seq };
  });
  tool("plan_update_task", "Update the status and metadata of a task (status: pending, in_progress, blocked, cancelled). Use request_review to send a task to review.", { task_id: z.string(), status: z.enum(AGENT_SETTABLE).optional(), metadata: z.record(z.string(), z.unknown()).optional() }, (a) =>
    agent.updateTask({ taskId: a.task_id, status: a.status, metadata: a.metadata }, { taskId: a.task_id }),
  );
  tool("plan_read", "Return the full plan as plan.json.", {}, () => agent.readPlan());
  tool("handoff", "Signal that your turn is over and destination_agent should act next.", { destination_agent: z.string(), reason: z.string() }, (a) => agent.handoff(a.destination_agent, a.reason));
  tool("checkpoint", "Report progress as Completed / Next / Blocked lists.", { completed: lines, next: lines, blocked: lines, task_id: z.string().optional() }, (a) =>
    agent.checkpoint({ completed: a.completed, next: a.next, blocked: a.blocked, taskId: a.task_id }, { taskId: a.task_id }),
  );
  tool("note", `Write a typed note. kind: ${NOTE_KINDS.join(", ")}. HYPOTHESIS needs fields.test and fields.budget; HYPERTHESIS fields.blindSpot and fields.bound.`, { kind: z.enum(NOTE_KINDS), text: z.string().min(1), fields: z.record(z.string(), z.unknown()).optional(), task_id: z.string().optional(), run_id: z.string().optional() }, (a) =>
    agent.note({ ...(a.fields ?? {}), kind: a.kind, text: a.text } as never, { taskId: a.task_id, runId: a.run_id }),
  );
  tool("request_review", "Ask for review of a task you implemented, citing evidence bundle ids; the task moves to in_review.", { task_id: z.string(), evidence_ids: z.array(z.string()).default([]) }, (a) => agent.requestReview(a.task_id, a.evidence_ids, { taskId: a.task_id }));
  tool(
    "escalate",
    "Ask the humans a question (intent, risk_tolerance or external_input). With wait=true, blocks until a human answers and returns the answer.",
    { question: z.string().min(1), kind: z.enum(["intent", "risk_tolerance", "external_input"]).default("external_input"), options: z.array(z.string()).optional(), task_id: z.string().optional(), wait: z.boolean().default(false), timeout_seconds: z.number().positive().optional() },
    async (a) => {
      const esc = await agent.escalate({ question: a.question, kind: a.kind, options: a.options, taskId: a.task_id }, { taskId: a.task_id });
      if (!a.wait) return { escalation_id: esc.escalationId, seq: esc.seq, answered: false };
      const answer = await agent.waitForAnswer(esc, { timeoutSeconds: a.timeout_seconds, signal });
      return answer ? { escalation_id: esc.escalationId, answered: true, answer: answer.answer, by: answer.by } : { escalation_id: esc.escalationId, answered: false, note: "no answer yet; wait on it again later" };
    },
  );
  tool("submit_evidence", "Upload a folder as an evidence bundle: every file hashed, missing ones uploaded; commands.jsonl in it is the command transcript. Returns the bundle id to cite.", { dir: z.string(), task_id: z.string().optional(), run_id: z.string().optional(), bundle_id: z.string().optional(), commit: z.string().optional() }, async (a) => {
    const r = await pushEvidence(agent.client, resolve(a.dir), { bundleId: a.bundle_id, taskId: a.task_id, runId: a.run_id, commit: a.commit });
    return { bundle_id: r.bundleId, artifacts: r.artifacts, uploaded: r.uploaded, seq: r.event.seq };
  });
  tool("submit_proof", "Submit a workcell's proof.json (seed 004), as an object.", { proof: z.record(z.string(), z.unknown()) }, (a) => agent.submitProof(a.proof as never));
  tool("read_tape", "Read the pod's tape: events after seq `after`. wait_seconds long-polls for new ones.", { after: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(500).default(50), wait_seconds: z.number().min(0).max(60).default(0) }, (a) =>
    agent.client.readEvents(a.after, { limit: a.limit, waitSeconds: a.wait_seconds, signal }),
  );
  return server;
}

/** Serves until stdin closes (the client went away) or `signal` aborts. */
export async function serveMcp(agent: PodAgent, signal: AbortSignal): Promise<void> {
  const server = createMcpServer(agent, signal);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((r) => {
    transport.onclose = r;
    process.stdin.once("end", r);
    signal.addEventListener("abort", () => r(), { once: true });
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
