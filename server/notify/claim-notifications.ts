// Claiming due notifications fairly: the oldest due rows first, but never more than
// PUSH_SLOTS_PER_DEVICE under way for one device (or mailbox) and PUSH_SLOTS_PER_PERSON for one
// person, counting what is under way on every node (a row whose lease has not run out). So one
// person's hung devices hold their share of the send slots and another person's push goes out at
// once; their other rows simply stay due in the table (nothing is held only in memory) until a slot
// of theirs frees. One device's rows also go in order (an open before its withdrawal).
import { Prisma } from "../db/generated/sqlite/client";
import type { TapeStore } from "../db/tape-store";
import { advisoryLocks } from "../db/advisory-locks";
import type { NotificationRow } from "./send-notification";

/** Requests under way at once to one device (one push service subscription) or one mailbox. */
export const PUSH_SLOTS_PER_DEVICE = 1;
/** Requests under way at once for one person, over all their devices and mail. */
export const PUSH_SLOTS_PER_PERSON = 4;
/** A row's lease: well past one delivery's deadline, so no other sender takes a row still being sent. */
export const LEASE_MS = 60_000;

/** Leases up to `limit` due rows within the caps; each row is returned to one claimer only. */
export async function claimNotifications(store: TapeStore, limit: number): Promise<NotificationRow[]> {
  const now = new Date().toISOString();
  const until = new Date(Date.now() + LEASE_MS).toISOString();
  if (store.kind === "postgres") {
    // Several nodes: claims take turns (a transaction lock), so each counts the leases the last one
    // took and the caps hold over the cluster; SKIP LOCKED passes over a row being recorded right now.
    return store.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${advisoryLocks.notificationClaims})`;
        const ids = await fairIds(tx, now, limit);
        if (!ids.length) return [];
        const rows = await tx.$queryRaw<NotificationRow[]>`UPDATE notification_delivery
          SET claimed_until = ${until} WHERE id IN (
            SELECT id FROM notification_delivery WHERE id IN (${Prisma.join(ids)}) AND outcome IS NULL
              AND (claimed_until IS NULL OR claimed_until < ${now}) FOR UPDATE SKIP LOCKED)
          RETURNING id, key, channel, target, user_id AS "userId", pod_id AS "podId", item_id AS "itemId",
            kind, payload, attempts`;
        return rows.sort((x, y) => x.id - y.id); // RETURNING does not promise an order
      },
      { maxWait: 10_000, timeout: 30_000 },
    );
  }
  // SQLite (one node, one writer): each lease taken only if still free.
  const free = { outcome: null, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] };
  const claimed: number[] = [];
  for (const id of await fairIds(store.prisma, now, limit)) {
    const { count } = await store.prisma.notificationDelivery.updateMany({
      where: { id, ...free },
      data: { claimedUntil: until },
    });
    if (count) claimed.push(id);
  }
  if (!claimed.length) return [];
  return store.prisma.notificationDelivery.findMany({
    where: { id: { in: claimed } },
    orderBy: { id: "asc" },
  });
}

type Raw = Pick<TapeStore["prisma"], "$queryRaw">;

/**
 * The ids to claim: due and free rows, oldest first, numbered per device after the device's leased
 * rows, and those within the device's cap numbered per person after the person's leased rows. One
 * statement over the due rows (the (outcome, not_before) index); the leased rows are at most the
 * cluster's send slots.
 */
async function fairIds(db: Raw, now: string, limit: number): Promise<number[]> {
  const rows = await db.$queryRaw<{ id: number | bigint }[]>`
    WITH busy AS (
      SELECT user_id, channel, target FROM notification_delivery
      WHERE outcome IS NULL AND claimed_until >= ${now}
    ),
    device_busy AS (SELECT channel, target, COUNT(*) AS n FROM busy GROUP BY channel, target),
    person_busy AS (SELECT user_id, COUNT(*) AS n FROM busy GROUP BY user_id),
    due AS (
      SELECT d.id, d.user_id,
        ROW_NUMBER() OVER (PARTITION BY d.channel, d.target ORDER BY d.id) + COALESCE(b.n, 0) AS turn
      FROM notification_delivery d
      LEFT JOIN device_busy b ON b.channel = d.channel AND b.target = d.target
      WHERE d.outcome IS NULL AND d.not_before <= ${now} AND (d.claimed_until IS NULL OR d.claimed_until < ${now})
    ),
    fits AS (
      SELECT due.id, ROW_NUMBER() OVER (PARTITION BY due.user_id ORDER BY due.id) + COALESCE(p.n, 0) AS turn
      FROM due LEFT JOIN person_busy p ON p.user_id = due.user_id
      WHERE due.turn <= ${PUSH_SLOTS_PER_DEVICE}
    )
    SELECT id FROM fits WHERE turn <= ${PUSH_SLOTS_PER_PERSON} ORDER BY id LIMIT ${limit}`;
  return rows.map((r) => Number(r.id));
}
