// A group commit on PostgreSQL in one round trip: the group is planned on the heads this node
// last committed (and the states it keeps of them), then written by one call of the function
// podwatch_append_planned (prisma/postgres/migrations/*_append_in_one_round_trip). It locks the
// heads, checks each is still the one planned on and that no event id is stored yet, writes the
// events, the heads, the first snapshots and the outbox rows, and notifies the buses, all in one
// statement: the heads' rows are held for no round trip at all. Any check that fails writes
// nothing and raises STALE_PLAN; the store then plans the group under the lock (postgres-store.ts).
import type pg from "pg";
import type { StoredEvent } from "../domain/plan-append";
import type { GroupPlan } from "../domain/plan-group";
import type { PodState } from "../domain/state/pod-state";
import { commitNotice, TAPE_CHANNEL } from "./commit-notice";
import { outboxInbox } from "./tape-store";

/** The function's SQLSTATE when what the group was planned on changed: nothing was written. */
export const STALE_PLAN = "PW001";

export const isStalePlan = (e: unknown) => (e as { code?: string } | null)?.code === STALE_PLAN;

/**
 * The function missing (42883: dropped by hand, a restore without functions) or not allowed to
 * this role (42501): nothing was written, and the locked path, which needs neither, still works.
 */
export const isPlannedPathUnavailable = (e: unknown) =>
  ["42883", "42501"].includes((e as { code?: string } | null)?.code ?? "");

/** An event row's fields in the order of the event table's columns (and of the function's arrays). */
const EVENT_FIELDS = [
  "id",
  "podId",
  "seq",
  "type",
  "actor",
  "role",
  "ts",
  "receivedAt",
  "body",
  "meta",
  "prevHash",
  "hash",
] as const satisfies readonly (keyof StoredEvent)[];

/** The rows as one array per column, in EVENT_FIELDS order: what an unnest-insert takes. */
export const eventColumns = (rows: StoredEvent[]) => EVENT_FIELDS.map((k) => rows.map((r) => r[k]));

const SQL = `SELECT podwatch_append_planned(${Array.from({ length: 28 }, (_, i) => `$${i + 1}`).join(", ")})`;

/**
 * `planned`: the heads the plan started from, one per pod of the group; `eventIds`: every id the
 * group's requests carry (also those of refused requests: stored, one would be a replay);
 * `snapshotted`: the pods whose state is stored with this commit (none of this version yet).
 */
export async function writePlanned(
  pool: pg.Pool,
  node: string,
  plan: GroupPlan,
  planned: Map<string, { seq: number; hash: string }>,
  eventIds: string[],
  snapshotted: string[],
): Promise<void> {
  const pods = [...planned.keys()];
  const o = plan.outbox;
  const state = (id: string) => JSON.stringify(plan.states.get(id) as PodState);
  await pool.query({
    // Named: each connection parses and plans it once.
    name: "podwatch_append_planned",
    text: SQL,
    values: [
      pods,
      pods.map((id) => planned.get(id)!.seq),
      pods.map((id) => planned.get(id)!.hash),
      pods.map((id) => plan.heads.get(id)!.seq),
      pods.map((id) => plan.heads.get(id)!.hash),
      eventIds,
      ...eventColumns(plan.rows),
      snapshotted,
      snapshotted.map((id) => plan.heads.get(id)!.seq),
      snapshotted.map(state),
      o.map((x) => x.podId),
      o.map((x) => x.fromSeq),
      o.map((x) => x.toSeq),
      o.map(outboxInbox),
      plan.receivedAt,
      TAPE_CHANNEL,
      o.map((x) => commitNotice(node, x.podId, x.fromSeq, x.toSeq)),
    ],
  });
}
