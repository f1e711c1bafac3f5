// Sending an escalation so that its answer is never lost: its ids are fixed before the first
// try, an unanswered try is sent again under them (the server answers a replay of a stored event
// with its seq), and "already exists" for the very same question — a run started again with the
// same escalation id after a crash — is that escalation, not a conflict.
import { randomUUID } from "node:crypto";
import type { EventDraft, PodwatchClient } from "./client";
import { PodwatchError } from "./errors";
import { retryTransient, type RetryOptions } from "./retry";

type EscalationBody = Extract<EventDraft, { type: "escalation" }>["body"];
type Envelope = Omit<EventDraft, "type" | "body">;
/** An escalation as the pod's state shows it (GET /state). */
export type StoredEscalation = {
  escalationId: string;
  seq: number;
  kind: string;
  question: string;
  options: string[];
  taskId: string | null;
  evidenceIds: string[];
  askedBy: string;
  answer: { answer: string; by: string; seq: number } | null;
};

/** The escalation's seq on the tape: a wait that reads from there finds its answer, whenever it came. */
export async function sendEscalation(
  client: PodwatchClient,
  body: EscalationBody & { escalationId: string },
  env: Envelope,
  retry: RetryOptions = {},
): Promise<{ escalationId: string; seq: number }> {
  const escalationId = body.escalationId;
  const draft = { ...env, id: env.id ?? randomUUID(), ts: env.ts ?? new Date().toISOString() };
  try {
    const ack = await retryTransient(() => client.emit({ type: "escalation", body, ...draft }), retry);
    return { escalationId, seq: ack.seq };
  } catch (e) {
    if (!(e instanceof PodwatchError)) throw e;
    if (e.status === 409 && e.code === "escalation_exists") {
      const stored = await storedEscalation(client, escalationId);
      if (stored && sameQuestion(stored, body, env, await client.actor()))
        return { escalationId, seq: stored.seq };
    }
    if (e.status === 0 || e.status >= 500)
      throw new PodwatchError(
        e.status,
        e.code,
        `${e.message} (escalation ${escalationId} may have been recorded: wait on it by its id, e.g. podwatch wait ${escalationId})`,
        e.issues,
      );
    throw e;
  }
}

export async function storedEscalation(
  client: PodwatchClient,
  escalationId: string,
): Promise<(StoredEscalation & { stateSeq: number }) | null> {
  const state = await client.state<{ seq: number; escalations: StoredEscalation[] }>();
  const esc = state.escalations.find((x) => x.escalationId === escalationId);
  return esc ? { ...esc, stateSeq: state.seq } : null;
}

function sameQuestion(s: StoredEscalation, body: EscalationBody, env: Envelope, actor: string): boolean {
  const taskId = body.taskId ?? env.taskId ?? null;
  return (
    s.askedBy === (env.actor ?? actor) &&
    s.kind === body.kind &&
    s.question === body.question &&
    s.taskId === taskId &&
    same(s.options, body.options ?? []) &&
    same(s.evidenceIds, body.evidenceIds ?? [])
  );
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
