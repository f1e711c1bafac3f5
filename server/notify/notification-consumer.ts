// The outbox consumer for people: a new inbox item becomes one delivery row per
// device (push) and per mailbox (mail) of each person who may answer it and
// wants it, and so does its reminder when a deadline with `then: remind` passes
// (its own key, marked with the deadline); an item answered anywhere becomes a
// withdrawal for every device it was sent to. Rows have unique keys, so a batch
// taken again adds nothing.
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import { isApprover } from "../domain/state/rules";
import { maySeeItem } from "../domain/access/policy";
import type { InboxItem, PodState } from "../domain/state/pod-state";
import type { OutboxBatch, OutboxConsumer } from "../outbox/outbox";
import { levelAllows, notificationKind, readLevels, readSettings } from "./preferences";
import { quietUntil } from "./quiet-hours";

/** The people who may answer the pod's inbox. */
export async function answerers(store: TapeStore, state: PodState) {
  const emails = Object.keys(state.members).filter((email) => isApprover(state, email));
  return emails.length
    ? store.prisma.user.findMany({ where: { email: { in: emails } }, select: { id: true, email: true } })
    : [];
}

/** The deadline a reminder is about (`due.at` once it passed with `then: remind`), else undefined. */
export const overdueAt = (item: Pick<InboxItem, "due">) => (item.due?.passed ? item.due.at : undefined);

/** One notification's key: the item as it opened, and for a reminder the deadline that passed. */
export const openKey = (
  channel: string,
  target: string,
  podId: string,
  item: Pick<InboxItem, "id" | "at" | "due">,
) => {
  const overdue = overdueAt(item);
  return `${channel}:${target}:${podId}:${item.id}@${item.at}${overdue ? `:overdue@${overdue}` : ""}`;
};

/** What a delivery row keeps to check, when it is sent, that the item is still as it was. */
export type OpenRowPayload = { at: string; overdue?: string };

export class NotificationConsumer implements OutboxConsumer {
  readonly name = "notifications";

  constructor(
    private readonly store: TapeStore,
    private readonly config: Pick<Config, "smtp">,
    /** Tells the sender there is new work. */
    private readonly wake: () => void,
  ) {}

  async take(batch: OutboxBatch): Promise<void> {
    if (!batch.opened.length && !batch.closed.length) return;
    const rows: Row[] = [];
    if (batch.opened.length) rows.push(...(await this.opened(batch)));
    if (batch.closed.length) rows.push(...(await this.withdrawals(batch)));
    for (const r of rows) {
      // A batch taken again (a crash before the outbox row was deleted) meets the unique key and adds nothing.
      await this.store.prisma
        .$executeRaw`INSERT INTO notification_delivery (key, channel, target, user_id, pod_id, item_id, kind, payload, attempts, not_before, created_at)
        VALUES (${r.key}, ${r.channel}, ${r.target}, ${r.userId}, ${r.podId}, ${r.itemId}, ${r.kind}, ${r.payload}, 0, ${r.notBefore}, ${r.createdAt}) ON CONFLICT (key) DO NOTHING`;
    }
    if (rows.length) this.wake();
  }

  private async opened(batch: OutboxBatch): Promise<Row[]> {
    const state = await this.store.readState(batch.podId);
    if (!state) return [];
    const now = new Date();
    const rows: Row[] = [];
    for (const user of await answerers(this.store, state)) {
      const [levels, settings, devices] = await Promise.all([
        readLevels(this.store, user.id),
        readSettings(this.store, user.id),
        this.store.prisma.pushSubscription.findMany({ where: { userId: user.id }, select: { id: true } }),
      ]);
      const level = levels.get(batch.podId) ?? "all";
      // Held through quiet hours; the sender sends then only what is still open.
      const notBefore = (quietUntil(settings.quietHours, now) ?? now).toISOString();
      for (const item of batch.opened) {
        if (!levelAllows(level, notificationKind(item))) continue;
        if (!maySeeItem(state.members[user.email]?.access ?? "none", item)) continue;
        const base = {
          userId: user.id,
          podId: batch.podId,
          itemId: item.id,
          kind: "open" as const,
          payload: JSON.stringify({ at: item.at, overdue: overdueAt(item) } satisfies OpenRowPayload),
          notBefore,
          createdAt: now.toISOString(),
        };
        for (const d of devices)
          rows.push({
            ...base,
            key: openKey("push", d.id, batch.podId, item),
            channel: "push",
            target: d.id,
          });
        if (this.config.smtp && settings.email)
          rows.push({
            ...base,
            key: openKey("email", user.id, batch.podId, item),
            channel: "email",
            target: user.id,
          });
      }
    }
    return rows;
  }

  /** Every device an item's notification went to (or is going to) is told to close it. */
  private async withdrawals(batch: OutboxBatch): Promise<Row[]> {
    const now = new Date().toISOString();
    // Sent, or being sent right now. One still waiting (quiet hours, a retry) reads the pod again before it
    // goes, finds the item closed and is skipped, so it needs no withdrawal.
    const opens = await this.store.prisma.notificationDelivery.findMany({
      where: {
        podId: batch.podId,
        itemId: { in: batch.closed },
        channel: "push",
        kind: "open",
        OR: [{ outcome: "sent" }, { outcome: null, claimedUntil: { gt: now } }],
      },
    });
    // An item and its reminder share a tag on the device: one withdrawal each device closes both.
    const firstPerDevice = new Map<string, (typeof opens)[number]>();
    for (const o of opens.sort((a, b) => a.id - b.id))
      if (!firstPerDevice.has(o.target)) firstPerDevice.set(o.target, o);
    return [...firstPerDevice.values()].map((o) => ({
      key: `${o.key}:withdraw`,
      channel: "push",
      target: o.target,
      userId: o.userId,
      podId: o.podId,
      itemId: o.itemId,
      kind: "withdraw" as const,
      payload: "{}",
      notBefore: now,
      createdAt: now,
    }));
  }
}

type Row = {
  key: string;
  channel: "push" | "email";
  target: string;
  userId: string;
  podId: string;
  itemId: string;
  kind: "open" | "withdraw";
  payload: string;
  notBefore: string;
  createdAt: string;
};
