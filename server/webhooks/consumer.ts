// The webhooks' outbox consumer: for each batch, one delivery row per enabled
// endpoint of the pod and message it asked for, keyed (endpoint, message id) and
// inserted with ON CONFLICT DO NOTHING, so a batch taken again adds nothing.
// The sending is the job runner's (webhook-jobs.ts).
import { randomUUID } from "node:crypto";
import type { TapeStore } from "../db/tape-store";
import { Prisma } from "../db/generated/sqlite/client";
import type { OutboxBatch, OutboxConsumer, OutboxRun } from "../outbox/outbox";
import { toTapeEvent } from "../tape/to-tape-event";
import type { WebhookFormat } from "../wire/webhooks";
import { eventMessage, inboxMessages, messageBody, type PodRef, type WebhookMessage } from "./messages";

export type NewDelivery = { endpointId: string; podId: string; message: WebhookMessage; payload: string };

export class WebhookConsumer implements OutboxConsumer {
  readonly name = "webhooks";
  constructor(
    private readonly store: TapeStore,
    private readonly publicUrl: string,
    private readonly onWork: () => void,
  ) {}

  async take(batch: OutboxBatch, run: OutboxRun): Promise<void> {
    // Read once per pod and run (a busy pod has many rows in one run).
    const endpoints = await run.memo(`webhooks:${batch.podId}`, () =>
      this.store.prisma.webhookEndpoint.findMany({ where: { podId: batch.podId, enabled: true } }),
    );
    if (!endpoints.length) return;
    const subscribed = endpoints.map((e) => ({
      id: e.id,
      format: e.format as WebhookFormat,
      topics: new Set(JSON.parse(e.events) as string[]),
    }));
    const messages = inboxMessages(batch.podId, batch.toSeq, batch.createdAt, batch.opened, batch.closed);
    if (subscribed.some((s) => [...s.topics].some((t) => !t.startsWith("inbox.")))) {
      for (let after = batch.fromSeq - 1; after < batch.toSeq;) {
        const page = await this.store.readEvents(batch.podId, after, Math.min(1000, batch.toSeq - after));
        if (!page.length) break;
        for (const e of page) if (e.seq <= batch.toSeq) messages.push(eventMessage(toTapeEvent(e)));
        after = page[page.length - 1]!.seq;
      }
    }
    const pod = await run.memo(`pod:${batch.podId}`, () => podRef(this.store, batch.podId, this.publicUrl));
    const rows: NewDelivery[] = [];
    for (const s of subscribed)
      for (const m of messages)
        if (s.topics.has(m.type))
          rows.push({
            endpointId: s.id,
            podId: batch.podId,
            message: m,
            payload: messageBody(m, s.format, pod),
          });
    if (!rows.length) return;
    await insertDeliveries(this.store, rows);
    this.onWork();
  }
}

export async function podRef(store: TapeStore, podId: string, publicUrl: string): Promise<PodRef> {
  const pod = await store.prisma.pod.findUnique({ where: { id: podId }, select: { name: true } });
  return { id: podId, name: pod?.name ?? podId, url: publicUrl };
}

/** Inserts deliveries due now; a row whose (endpoint, message id) exists already is left as it is. Returns how many were new. */
export async function insertDeliveries(store: TapeStore, rows: NewDelivery[]): Promise<number> {
  const now = new Date().toISOString();
  let added = 0;
  for (let i = 0; i < rows.length; i += 100) {
    const values = rows
      .slice(i, i + 100)
      .map(
        (r) =>
          Prisma.sql`(${randomUUID()}, ${r.endpointId}, ${r.podId}, ${r.message.id}, ${r.message.type}, ${r.payload}, 'pending', ${now}, ${now})`,
      );
    added += await store.prisma
      .$executeRaw`INSERT INTO webhook_delivery (id, endpoint_id, pod_id, message_id, type, payload, status, next_attempt_at, created_at) VALUES ${Prisma.join(values)} ON CONFLICT (endpoint_id, message_id) DO NOTHING`;
  }
  return added;
}
