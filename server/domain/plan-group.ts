// Plans a group of append requests that will be committed in one transaction:
// each request is all-or-nothing on its own (a refused request adds nothing),
// and later requests chain onto what earlier ones in the group added.
import { AppError, notFound } from "./errors";
import { planAppend, type Ack, type Head, type NewEvent, type StoredEvent, type StoredRef } from "./plan-append";

export type GroupRequest = { podId: string; events: NewEvent[] };
export type GroupOutcome = { ok: true; acks: Ack[]; added: StoredEvent[] } | { ok: false; error: AppError };
export type GroupPlan = { outcomes: GroupOutcome[]; rows: StoredEvent[]; heads: Map<string, Head>; touched: string[] };

/** `heads` holds the current head of every existing pod named in the group. */
export function planGroup(
  requests: GroupRequest[],
  heads: ReadonlyMap<string, Head>,
  existing: ReadonlyMap<string, StoredRef>,
  receivedAt: string,
): GroupPlan {
  const next = new Map(heads);
  const known = new Map(existing);
  const rows: StoredEvent[] = [];
  const touched = new Set<string>();
  const outcomes = requests.map((r): GroupOutcome => {
    const head = next.get(r.podId);
    if (!head) return { ok: false, error: notFound("pod") };
    try {
      const plan = planAppend(r.podId, head, r.events, known, receivedAt);
      next.set(r.podId, plan.head);
      for (const row of plan.rows) known.set(row.id, row);
      if (plan.rows.length) touched.add(r.podId);
      rows.push(...plan.rows);
      return { ok: true, acks: plan.acks, added: plan.rows };
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    }
  });
  return { outcomes, rows, heads: next, touched: [...touched] };
}
