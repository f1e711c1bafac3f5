// The pod protocol as verbs, for an agent: checkpoints, notes, the plan tools
// (plan_add_task, plan_update_task, plan_read: docs/protocol/plan-and-handoffs.md), handoffs,
// escalations (and waiting for the human's answer), workcells, proofs, runs
// and reviews. Each is one event (or file-format document) through the client.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { ZPlanJson, ZProof, ZTaskManifest } from "../../server/wire/seed-formats";
import { PodwatchClient, type Ack, type EventDraft } from "./client";
import { Interrupted, PodwatchError } from "./errors";
import { retryTransient, type RetryOptions } from "./retry";
import { sendEscalation, storedEscalation } from "./send-escalation";
import { SYSTEM_ACTOR } from "../../server/wire/vocabulary";

export type PlanJson = z.input<typeof ZPlanJson>;
export type Escalation = { escalationId: string; seq: number };
/** `byDeadline`: nobody answered in time, so the escalation's deadline gave its default answer (by "podwatch"). */
export type Answer = { escalationId: string; answer: string; by: string; seq: number; byDeadline?: boolean };

function isDeadlineAnswer(body: unknown, escalationId: string): boolean {
  const b = body as { subject?: { kind?: string; id?: string }; outcome?: string; answer?: unknown };
  return (
    b.subject?.kind === "escalation" &&
    b.subject.id === escalationId &&
    b.outcome === "answered" &&
    typeof b.answer === "string"
  );
}
type Body<T extends EventDraft["type"]> = Extract<EventDraft, { type: T }>["body"];
type Envelope = Pick<EventDraft, "taskId" | "runId" | "workItemId" | "mood" | "refs" | "role">;

/**
 * Events a wait reads per request while it looks for its answer: an event may be 1 MiB, and a
 * remote MCP session's wait runs inside the server, so a busy tape must not arrive 500 at a time.
 */
const WAIT_PAGE_EVENTS = 16;

export class PodAgent {
  constructor(readonly client: PodwatchClient) {}

  static fromEnv(env: NodeJS.ProcessEnv = process.env) {
    return new PodAgent(PodwatchClient.fromEnv(env));
  }

  checkpoint(body: Body<"checkpoint">, env: Envelope = {}) {
    return this.client.emit({ type: "checkpoint", body, ...env });
  }

  note(body: Body<"note">, env: Envelope = {}) {
    return this.client.emit({ type: "note", body, ...env });
  }

  /** plan_add_task(description): a pending task, numbered by the pod when no id is given. */
  async addTask(body: Body<"task.added">, env: Envelope = {}): Promise<Ack & { taskId: string }> {
    const ack = await this.client.emit({ type: "task.added", body, ...env });
    if (body.taskId) return { ...ack, taskId: body.taskId };
    // The pod numbered it (task_001…): find the task this very event created.
    const { board } = await this.client.state<{ board: { taskId: string; createdSeq: number }[] }>();
    const created = board.find((t) => t.createdSeq === ack.seq);
    if (!created)
      throw new PodwatchError(500, "task_not_found", `task added as #${ack.seq} but not on the board`);
    return { ...ack, taskId: created.taskId };
  }

  /** plan_update_task(task_id, status, metadata). */
  updateTask(body: Body<"task.updated">, env: Envelope = {}) {
    return this.client.emit({ type: "task.updated", body, ...env });
  }

  /** plan_read(): the plan in plan.json's own format. */
  async readPlan(): Promise<{
    tasks: {
      task_id: string;
      description: string;
      status: string;
      metadata: Record<string, unknown>;
      depends_on?: string[];
    }[];
  }> {
    return this.client.request("GET", await this.client.podPath("/plan"));
  }

  async importPlan(plan: PlanJson): Promise<{ event: Ack }> {
    return this.client.request("POST", await this.client.podPath("/plan"), plan);
  }

  /** handoff(destination_agent, reason): docs/protocol/plan-and-handoffs.md#handoffs. */
  handoff(to: string, reason: string, env: Envelope = {}) {
    return this.client.emit({ type: "handoff", body: { to, reason }, ...env });
  }

  requestReview(taskId: string, evidenceIds: string[] = [], env: Envelope = {}) {
    return this.client.emit({ type: "task.review_requested", body: { taskId, evidenceIds }, ...env });
  }

  review(body: Body<"review">, env: Envelope = {}) {
    return this.client.emit({ type: "review", body, ...env });
  }

  /**
   * Asks the humans; the id is chosen here so the answer can be waited for. A try the server may
   * have stored without answering is sent again under the same ids (`retry` bounds it), and the
   * same question already asked under this escalation id is that escalation (send-escalation.ts).
   */
  async escalate(
    body: Omit<Body<"escalation">, "escalationId"> & { escalationId?: string },
    env: Envelope = {},
    retry: RetryOptions = {},
  ): Promise<Escalation> {
    const escalationId = body.escalationId ?? `esc-${randomUUID().slice(0, 8)}`;
    return sendEscalation(this.client, { ...body, escalationId }, env, retry);
  }

  /**
   * Waits on an escalation asked earlier, by its id (after a crash, from another process): its
   * answer at once if it has one, else as waitForAnswer. Throws 404 for an id the pod does not know.
   */
  async waitForEscalation(
    escalationId: string,
    o: { timeoutSeconds?: number; signal?: AbortSignal } = {},
  ): Promise<Answer | null> {
    const esc = await this.findEscalation(escalationId, { signal: o.signal });
    return esc.answer ?? this.waitForAnswer(esc, o);
  }

  /**
   * Blocks until a human answers the escalation — or its deadline passes with a default answer
   * (`by` is then "podwatch", `byDeadline` true; a deadline that only reminds keeps the wait going);
   * null when `timeoutSeconds` pass first.
   * Throws `Interrupted` when `signal` aborts, so a caller never mistakes Ctrl-C for "no answer".
   */
  async waitForAnswer(
    e: Escalation,
    o: { timeoutSeconds?: number; signal?: AbortSignal } = {},
  ): Promise<Answer | null> {
    const deadline = o.timeoutSeconds === undefined ? Infinity : Date.now() + o.timeoutSeconds * 1000;
    let cursor = e.seq;
    for (;;) {
      const left = (deadline - Date.now()) / 1000;
      if (left <= 0) return null;
      const page = await this.client.waitForPage(cursor, {
        waitSeconds: Math.max(0.1, Math.min(30, left)),
        signal: o.signal,
        limit: WAIT_PAGE_EVENTS,
      });
      if (!page) throw new Interrupted();
      const answer = page.events.find(
        (x) =>
          x.type === "escalation.answered" &&
          (x.body as { escalationId: string }).escalationId === e.escalationId,
      );
      if (answer)
        return {
          escalationId: e.escalationId,
          answer: (answer.body as { answer: string }).answer,
          by: answer.actor,
          seq: answer.seq,
        };
      const passed = page.events.find(
        (x) => x.type === "deadline.passed" && isDeadlineAnswer(x.body, e.escalationId),
      );
      if (passed)
        return {
          escalationId: e.escalationId,
          answer: (passed.body as { answer: string }).answer,
          by: passed.actor,
          seq: passed.seq,
          byDeadline: true,
        };
      cursor = page.nextAfter;
    }
  }

  /**
   * An escalation asked earlier (by id), to wait on it again. Its `seq` is the state's: the state
   * already says whether it was answered up to there, so a wait reads only what comes after;
   * `askedSeq` is the escalation's own. A server that is restarting is asked again (`retry`), as a
   * wait's long-polls are.
   */
  async findEscalation(
    escalationId: string,
    retry: RetryOptions = {},
  ): Promise<Escalation & { answer: Answer | null; askedSeq: number }> {
    const esc = await retryTransient(() => storedEscalation(this.client, escalationId), retry);
    if (!esc)
      throw new PodwatchError(
        404,
        "unknown_escalation",
        `escalation ${escalationId} does not exist in this pod`,
      );
    return {
      escalationId,
      seq: esc.stateSeq,
      askedSeq: esc.seq,
      answer: esc.answer && {
        escalationId,
        answer: esc.answer.answer,
        by: esc.answer.by,
        seq: esc.answer.seq,
        ...(esc.answer.by === SYSTEM_ACTOR ? { byDeadline: true } : {}),
      },
    };
  }

  async openWorkcell(manifest: z.input<typeof ZTaskManifest>): Promise<{ workcellId: string; event: Ack }> {
    return this.client.request("POST", await this.client.podPath("/workcells"), manifest);
  }

  async submitProof(proof: z.input<typeof ZProof>): Promise<{ workcellId: string; event: Ack }> {
    const id = (proof as { workcell_id?: unknown }).workcell_id;
    if (typeof id !== "string" || !id)
      throw new PodwatchError(400, "invalid_proof", "proof.json: workcell_id: required", [
        { path: "workcell_id", message: "required" },
      ]);
    return this.client.request(
      "POST",
      await this.client.podPath(`/workcells/${encodeURIComponent(id)}/proof`),
      proof,
    );
  }

  startRun(body: Body<"run.started">, env: Envelope = {}) {
    return this.client.emit({
      type: "run.started",
      body,
      ...env,
      runId: body.runId,
      workItemId: body.workItemId,
    });
  }
  verifyRun(body: Body<"run.verified">, env: Envelope = {}) {
    return this.client.emit({ type: "run.verified", body, ...env, runId: body.runId });
  }
  commitRun(body: Body<"run.committed">, env: Envelope = {}) {
    return this.client.emit({ type: "run.committed", body, ...env, runId: body.runId });
  }
  discardRun(body: Body<"run.discarded">, env: Envelope = {}) {
    return this.client.emit({ type: "run.discarded", body, ...env, runId: body.runId });
  }
}
