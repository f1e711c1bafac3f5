// The fair claim over real rows on SQLite and PostgreSQL: oldest first within a cap per device and
// a cap per person, counting leases still running (on any node); rows over a cap stay due, and are
// taken as slots free. On PostgreSQL two nodes claiming at once take each row once and together
// stay within the caps.
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { openStore } from "../db/open-store";
import type { TapeStore } from "../db/tape-store";
import { createTestDatabase, testProviders } from "../testing/test-databases";
import { claimNotifications } from "./claim-notifications";
import { PUSH_SLOTS_PER_DEVICE, PUSH_SLOTS_PER_PERSON } from "./fair-share";

/** One row per (device, item), items outer: as the consumer writes a person's new items. */
async function queue(
  store: TapeStore,
  userId: string,
  devices: string[],
  items: number,
  claimedUntil?: string,
) {
  const now = new Date(Date.now() - 1000).toISOString();
  const data = Array.from({ length: items }, (_, i) =>
    devices.map((target) => ({
      key: `push:${target}:pod:item-${i}@${randomUUID()}`,
      channel: "push",
      target,
      userId,
      podId: "pod",
      itemId: `item-${i}`,
      kind: "open",
      payload: "{}",
      notBefore: now,
      createdAt: now,
      claimedUntil,
    })),
  ).flat();
  await store.prisma.notificationDelivery.createMany({ data });
}
const devices = (who: string, n: number) => Array.from({ length: n }, (_, i) => `${who}-device-${i}`);
const count = <T>(xs: T[]) => {
  const m = new Map<T, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return Math.max(0, ...m.values());
};

describe.each(testProviders())("claiming notifications fairly on %s", (provider) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function setUp() {
    const db = await createTestDatabase(provider);
    cleanup.push(() => db.drop());
    const store = await openStore(db.url);
    cleanup.push(() => store.close());
    return { db, store };
  }

  it("gives a person at most their share, one request per device, and the rest to the others", async () => {
    const { store } = await setUp();
    await queue(store, "ann", devices("ann", 20), 3); // 60 rows, all older than Bo's
    await queue(store, "bo", devices("bo", 1), 2);
    const first = await claimNotifications(store, 16);
    const ann = first.filter((r) => r.userId === "ann");
    expect(ann).toHaveLength(PUSH_SLOTS_PER_PERSON);
    expect(ann.map((r) => r.target)).toEqual(devices("ann", PUSH_SLOTS_PER_PERSON)); // oldest first
    // Bo's device takes its first item now; his second waits for it (one device's rows in order).
    expect(first.filter((r) => r.userId === "bo").map((r) => r.itemId)).toEqual(["item-0"]);

    // Under way (leased) rows count: nothing more fits until one is done.
    expect(await claimNotifications(store, 16)).toEqual([]);
    const done = first[0]!;
    await store.prisma.notificationDelivery.update({
      where: { id: done.id },
      data: { outcome: "sent", claimedUntil: null },
    });
    const next = await claimNotifications(store, 16);
    expect(next.map((r) => r.target)).toEqual(["ann-device-4"]);
    // Nothing was lost: every row is still there, pending or done.
    expect(await store.prisma.notificationDelivery.count()).toBe(62);
  });

  it("counts a lease taken elsewhere, and a lease that ran out is free again", async () => {
    const { store } = await setUp();
    const later = new Date(Date.now() + 60_000).toISOString();
    const past = new Date(Date.now() - 1).toISOString();
    await queue(store, "cy", ["cy-phone"], 1, later); // being sent by another node
    await queue(store, "cy", ["cy-laptop"], PUSH_SLOTS_PER_PERSON, past); // a lease that ran out
    await queue(store, "cy", devices("cy-tablet", PUSH_SLOTS_PER_PERSON), 1);
    const got = await claimNotifications(store, 16);
    expect(got).toHaveLength(PUSH_SLOTS_PER_PERSON - 1);
    expect(count(got.map((r) => r.target))).toBeLessThanOrEqual(PUSH_SLOTS_PER_DEVICE);
    expect(got[0]!.target).toBe("cy-laptop");
  });
});

// Several nodes share one database only on PostgreSQL.
describe.each(testProviders().filter((p) => p === "postgres"))("claiming on two nodes on %s", () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it("two nodes claiming at once take each row once, within the caps", async () => {
    const db = await createTestDatabase("postgres");
    cleanup.push(() => db.drop());
    const store = await openStore(db.url);
    cleanup.push(() => store.close());
    const other = await openStore(db.url);
    cleanup.push(() => other.close());
    for (const who of ["p1", "p2", "p3"]) await queue(store, who, devices(who, 10), 2);
    const [a, b] = await Promise.all([claimNotifications(store, 16), claimNotifications(other, 16)]);
    const all = [...a, ...b];
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    expect(all).toHaveLength(3 * PUSH_SLOTS_PER_PERSON);
    expect(count(all.map((r) => r.userId))).toBe(PUSH_SLOTS_PER_PERSON);
    expect(count(all.map((r) => r.target))).toBe(PUSH_SLOTS_PER_DEVICE);
  });
});
