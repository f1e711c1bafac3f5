// Claiming due notifications fairly (the caps: fair-share.ts): one person's hung devices hold their
// share of the send slots and another person's push goes out at once; their other rows simply stay
// due in the table (nothing is held only in memory) until a slot of theirs frees. The rows under
// way on every node count (a lease not yet run out). The cost is an index seek per person with
// pending rows and a walk of that person's pending rows to their oldest due ones (past those waiting
// for a retry), never a pass over everyone's backlog.
import { Prisma } from "../db/generated/sqlite/client";
import type { TapeStore } from "../db/tape-store";
import { advisoryLocks } from "../db/advisory-locks";
import { CANDIDATES_PER_PERSON, fairShare, type Slot } from "./fair-share";
import type { NotificationRow } from "./send-notification";

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
        const ids = await fairIds(tx, true, now, limit);
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
  for (const id of await fairIds(store.prisma, false, now, limit)) {
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

/** The ids to claim: each person's oldest due and free rows, shared out after the rows under way. */
async function fairIds(db: Raw, postgres: boolean, now: string, limit: number): Promise<number[]> {
  const candidates = (postgres ? await candidatesAtOnce(db, now) : await candidatesPerPerson(db, now)).map(
    (r) => ({ ...r, id: Number(r.id) }),
  );
  if (!candidates.length) return [];
  // Under way: a lease not yet run out (the claimed_until index: at most the cluster's send slots).
  const underWay = await db.$queryRaw<Slot[]>`
    SELECT user_id AS "userId", channel, target FROM notification_delivery
    WHERE claimed_until >= ${now} AND outcome IS NULL`;
  return fairShare(candidates, underWay, limit);
}

type Candidate = Slot & { id: number | bigint };

// Each ordered as the (outcome, user_id, id) index is (outcome is NULL throughout): PostgreSQL takes
// an index's order for ORDER BY only so, not after `outcome IS NULL`, and would scan the table instead.
/** The people with pending rows, one index seek each (a loose scan of the index). */
const PEOPLE = Prisma.sql`WITH RECURSIVE people (user_id) AS (
    SELECT (SELECT user_id FROM notification_delivery WHERE outcome IS NULL ORDER BY outcome, user_id LIMIT 1)
    UNION ALL
    SELECT (SELECT n.user_id FROM notification_delivery n WHERE n.outcome IS NULL AND n.user_id > p.user_id
      ORDER BY n.outcome, n.user_id LIMIT 1)
    FROM people p WHERE p.user_id IS NOT NULL
  )`;

const oldestDue = (now: string, userId: Prisma.Sql) => Prisma.sql`
  SELECT id, user_id AS "userId", channel, target FROM notification_delivery
  WHERE outcome IS NULL AND user_id = ${userId} AND not_before <= ${now}
    AND (claimed_until IS NULL OR claimed_until < ${now})
  ORDER BY outcome, user_id, id LIMIT ${CANDIDATES_PER_PERSON}`;

/** PostgreSQL: one statement (a round trip per person would hold the claim lock that much longer). */
const candidatesAtOnce = (db: Raw, now: string) =>
  db.$queryRaw<Candidate[]>`${PEOPLE} SELECT c.* FROM people p
    CROSS JOIN LATERAL (${oldestDue(now, Prisma.sql`p.user_id`)}) c WHERE p.user_id IS NOT NULL`;

/** SQLite (no LATERAL): a short query per person, each quick on the event loop. */
async function candidatesPerPerson(db: Raw, now: string): Promise<Candidate[]> {
  const people = await db.$queryRaw<{ userId: string }[]>`${PEOPLE}
    SELECT user_id AS "userId" FROM people WHERE user_id IS NOT NULL`;
  const rows: Candidate[] = [];
  for (const { userId } of people)
    rows.push(...(await db.$queryRaw<Candidate[]>`${oldestDue(now, Prisma.sql`${userId}`)}`));
  return rows;
}
