// `podwatch mcp`: the pod's tools for any MCP client, over stdio (and, built by
// the same createMcpServer, over Streamable HTTP at the server's /mcp: server/mcp/).
// The plan tools and handoff (docs/protocol/plan-and-handoffs.md) keep their names and argument names;
// the rest mirror the CLI. Every call is one SDK call; a refusal comes back
// as a tool error whose text says what to fix, so the model can retry.
import { isAbsolute, relative, resolve, sep } from "node:path";
// The MCP SDK is loaded only by `podwatch mcp`, so every other command starts without it.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { pushEvidence } from "../sdk/evidence";
import { PodwatchError, UsageError } from "../sdk/errors";
import type { Answer, Escalation, PodAgent } from "../sdk/pod-agent";
import { DEADLINE_MAX_MINUTES, NOTE_KINDS } from "../../server/wire/events";
import { boundedText, MAX_ANSWER_BYTES, planPage, readTapePage } from "./bounded-answers";

type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };
const ok = (value: unknown): ToolResult => ({
  content: [
    { type: "text", text: boundedText(typeof value === "string" ? value : JSON.stringify(value, null, 2)) },
  ],
});
const failed = (e: unknown): ToolResult => {
  const issues =
    e instanceof PodwatchError && e.issues.length
      ? `\n${e.issues.map((i) => `${i.path}: ${i.message}`).join("\n")}`
      : "";
  return {
    content: [
      {
        type: "text",
        text: boundedText(
          `${e instanceof PodwatchError ? `${e.code}: ` : ""}${(e as Error).message}${issues}`,
        ),
      },
    ],
    isError: true,
  };
};
/** What an MCP client waits for one call by default (the SDK's client gives up after 60 s). */
const MAX_WAIT_SECONDS = 50;
/** How long escalate sends again a question the server may have stored without answering. */
const RETRY_SECONDS = 30;

const lines = z.array(z.string()).default([]);
/** What an agent may set with plan_update_task; in_review, done and rejected come from review and decisions. */
const AGENT_SETTABLE = ["pending", "in_progress", "blocked", "cancelled"] as const;

/**
 * `lifetime` aborts when the client goes away; each call also stops when the client cancels it,
 * so a waiting escalate never outlives its caller. Without `evidenceRoot` (a server serving
 * remote clients: it has no folder of theirs to read) there is no submit_evidence tool.
 */
export async function createMcpServer(
  agent: PodAgent,
  lifetime: AbortSignal,
  evidenceRoot?: string,
): Promise<McpServer> {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const server = new McpServer({ name: "podwatch", version: "0.1.0" });
  const tool = <S extends z.ZodRawShape>(
    name: string,
    description: string,
    shape: S,
    run: (a: z.infer<z.ZodObject<S>>, signal: AbortSignal) => Promise<unknown>,
  ) =>
    server.registerTool(name, { description, inputSchema: shape }, (async (
      a: z.infer<z.ZodObject<S>>,
      extra: { signal: AbortSignal },
    ) => {
      try {
        return ok(await run(a, AbortSignal.any([lifetime, extra.signal])));
      } catch (e) {
        return failed(e);
      }
    }) as never);
  /** The reply for an escalation: its answer (now, or once one comes within the wait), or "not yet". */
  const waited = async (
    esc: Escalation & { answer?: Answer | null },
    timeoutSeconds: number,
    signal: AbortSignal,
  ) => {
    const answer = esc.answer ?? (await agent.waitForAnswer(esc, { timeoutSeconds, signal }));
    return answer
      ? {
          escalation_id: esc.escalationId,
          answered: true,
          answer: answer.answer,
          by: answer.by,
          ...(answer.byDeadline
            ? {
                by_deadline: true,
                note: "nobody answered in time: the escalation's deadline gave its default answer",
              }
            : {}),
        }
      : {
          escalation_id: esc.escalationId,
          answered: false,
          note: "no answer yet: call wait_for_answer with this escalation_id to keep waiting",
        };
  };

  tool(
    "plan_add_task",
    "Add a task to the plan with pending status. Returns its task_id.",
    {
      description: z.string().min(1),
      task_id: z.string().optional(),
      depends_on: z.array(z.string()).optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    },
    async (a) => {
      const r = await agent.addTask({
        description: a.description,
        taskId: a.task_id,
        dependsOn: a.depends_on,
        metadata: a.metadata,
      });
      return { task_id: r.taskId, seq: r.seq };
    },
  );
  tool(
    "plan_update_task",
    "Update the status and metadata of a task (status: pending, in_progress, blocked, cancelled). Use request_review to send a task to review.",
    {
      task_id: z.string(),
      status: z.enum(AGENT_SETTABLE).optional(),
      metadata: z.record(z.string(), z.unknown()).optional(),
    },
    (a) =>
      agent.updateTask({ taskId: a.task_id, status: a.status, metadata: a.metadata }, { taskId: a.task_id }),
  );
  tool(
    "plan_read",
    `Return the plan as plan.json. A plan past ${MAX_ANSWER_BYTES} bytes comes in pages: more=true and next_from say where the next starts (from).`,
    { from: z.number().int().min(0).default(0) },
    async (a) => planPage(await agent.readPlan(), a.from),
  );
  tool(
    "handoff",
    "Signal that your turn is over and destination_agent should act next.",
    { destination_agent: z.string(), reason: z.string() },
    (a) => agent.handoff(a.destination_agent, a.reason),
  );
  tool(
    "checkpoint",
    "Report progress as Completed / Next / Blocked lists (at least one line in all).",
    { completed: lines, next: lines, blocked: lines, task_id: z.string().optional() },
    (a) =>
      agent.checkpoint(
        { completed: a.completed, next: a.next, blocked: a.blocked, taskId: a.task_id },
        { taskId: a.task_id },
      ),
  );
  tool(
    "note",
    `Write a typed note. kind: ${NOTE_KINDS.join(", ")}. HYPOTHESIS needs fields.test and fields.budget; HYPERTHESIS fields.blindSpot and fields.bound.`,
    {
      kind: z.enum(NOTE_KINDS),
      text: z.string().min(1),
      fields: z.record(z.string(), z.unknown()).optional(),
      task_id: z.string().optional(),
      run_id: z.string().optional(),
    },
    (a) =>
      agent.note({ ...(a.fields ?? {}), kind: a.kind, text: a.text } as never, {
        taskId: a.task_id,
        runId: a.run_id,
      }),
  );
  tool(
    "request_review",
    "Ask for review of a task you implemented, citing evidence bundle ids; the task moves to in_review.",
    { task_id: z.string(), evidence_ids: z.array(z.string()).default([]) },
    (a) => agent.requestReview(a.task_id, a.evidence_ids, { taskId: a.task_id }),
  );
  const waitSeconds = z.number().positive().max(MAX_WAIT_SECONDS).default(MAX_WAIT_SECONDS);
  tool(
    "escalate",
    `Ask the humans a question (intent, risk_tolerance or external_input). With wait=true, waits up to timeout_seconds (≤ ${MAX_WAIT_SECONDS}) for a human's answer and returns it; if none came yet, call wait_for_answer. deadline_minutes (or deadline_at, an ISO time) with then="answer" and default_answer: if nobody answers in time the server answers with default_answer (one of the options); then="remind" only reminds the humans. escalation_id (optional, your own): asking again with the same id and question is safe, it is the same escalation; an error that may have left it recorded names its id, for wait_for_answer.`,
    {
      question: z.string().min(1),
      kind: z.enum(["intent", "risk_tolerance", "external_input"]).default("external_input"),
      options: z.array(z.string()).optional(),
      task_id: z.string().optional(),
      wait: z.boolean().default(false),
      timeout_seconds: waitSeconds,
      deadline_minutes: z.number().int().min(1).max(DEADLINE_MAX_MINUTES).optional(),
      deadline_at: z.string().optional(),
      then: z.enum(["remind", "answer"]).optional(),
      default_answer: z.string().min(1).optional(),
      escalation_id: z.string().min(1).max(200).optional(),
    },
    async (a, signal) => {
      const started = Date.now();
      const when =
        a.deadline_minutes !== undefined
          ? { inMinutes: a.deadline_minutes }
          : a.deadline_at !== undefined
            ? { at: a.deadline_at }
            : null;
      const deadline = when
        ? ({
            ...when,
            then: a.then ?? (a.default_answer !== undefined ? "answer" : "remind"),
            ...(a.default_answer !== undefined ? { answer: a.default_answer } : {}),
          } as const)
        : undefined;
      const esc = await agent.escalate(
        {
          question: a.question,
          kind: a.kind,
          options: a.options,
          taskId: a.task_id,
          escalationId: a.escalation_id,
          ...(deadline ? { deadline } : {}),
        },
        { taskId: a.task_id },
        // Retried under its own ids for part of the client's wait; past that, its error names the id.
        { seconds: RETRY_SECONDS, signal },
      );
      // The client's patience covers the retries too: the wait gets what is left of timeout_seconds.
      const left = Math.max(0.1, a.timeout_seconds - (Date.now() - started) / 1000);
      return a.wait
        ? waited(esc, left, signal)
        : { escalation_id: esc.escalationId, seq: esc.seq, answered: false };
    },
  );
  tool(
    "wait_for_answer",
    `Wait up to timeout_seconds (≤ ${MAX_WAIT_SECONDS}) for the human's answer to an escalation; returns it at once if it was already answered.`,
    { escalation_id: z.string(), timeout_seconds: waitSeconds },
    async (a, signal) => {
      const started = Date.now();
      const esc = await agent.findEscalation(a.escalation_id, { seconds: RETRY_SECONDS, signal });
      return waited(esc, Math.max(0.1, a.timeout_seconds - (Date.now() - started) / 1000), signal);
    },
  );
  const root = evidenceRoot;
  if (root !== undefined)
    tool(
      "submit_evidence",
      "Upload a folder (inside the agent's workspace) as an evidence bundle: every file hashed, missing ones uploaded; commands.jsonl in it is the command transcript. With task_id it becomes that task's evidence. Returns the bundle id to cite.",
      {
        dir: z.string(),
        task_id: z.string().optional(),
        run_id: z.string().optional(),
        bundle_id: z.string().optional(),
        commit: z.string().optional(),
      },
      async (a, signal) => {
        const dir = insideRoot(root, a.dir);
        const r = await pushEvidence(agent.client, dir, {
          bundleId: a.bundle_id,
          taskId: a.task_id,
          runId: a.run_id,
          commit: a.commit,
          signal,
        });
        return { bundle_id: r.bundleId, artifacts: r.artifacts, uploaded: r.uploaded, seq: r.event.seq };
      },
    );
  tool(
    "submit_proof",
    "Submit a workcell's proof.json, as an object.",
    { proof: z.record(z.string(), z.unknown()) },
    (a) => agent.submitProof(a.proof as never),
  );
  tool(
    "read_tape",
    `Read the pod's tape: events after seq \`after\`, at most \`limit\` and ${MAX_ANSWER_BYTES} bytes. more=true says there are more: call again with after=nextAfter. An event too large for one answer comes without its body (bodyOmitted says where to read it). wait_seconds long-polls for new ones.`,
    {
      after: z.number().int().min(0).default(0),
      limit: z.number().int().min(1).max(500).default(50),
      wait_seconds: z.number().min(0).max(MAX_WAIT_SECONDS).default(0),
    },
    (a, s) => readTapePage(agent.client, { after: a.after, limit: a.limit, waitSeconds: a.wait_seconds }, s),
  );
  return server;
}

/**
 * A model names folders; only those inside the workspace (PODWATCH_EVIDENCE_ROOT, default the
 * directory the server was started in) may be uploaded, so a prompt cannot ship ~/.ssh.
 */
function insideRoot(root: string, dir: string): string {
  const full = resolve(root, dir);
  const rel = relative(root, full);
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new UsageError(
      `${dir} is outside the evidence root ${root}; set PODWATCH_EVIDENCE_ROOT to allow it`,
    );
  return full;
}

/** Serves until stdin closes (the client went away) or `signal` aborts; then every pending call stops. */
export async function serveMcp(
  agent: PodAgent,
  signal: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const lifetime = new AbortController();
  const end = () => lifetime.abort();
  signal.addEventListener("abort", end, { once: true });
  process.stdin.once("end", end);
  const server = await createMcpServer(
    agent,
    lifetime.signal,
    resolve(env.PODWATCH_EVIDENCE_ROOT || process.cwd()),
  );
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const transport = new StdioServerTransport();
  transport.onclose = end;
  await server.connect(transport);
  if (!lifetime.signal.aborted)
    await new Promise((r) => lifetime.signal.addEventListener("abort", r, { once: true }));
  await server.close();
}
