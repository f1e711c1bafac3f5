// An endpoint's delivery log (newest first, paged), "Send a test" and "Redeliver".
import type { TapeStore } from "../db/tape-store";
import { AppError, notFound } from "../domain/errors";
import { randomUUID } from "node:crypto";
import type { WebhookDeliveriesResponse, WebhookDeliveryInfo, WebhookDeliveryStatus, WebhookFormat } from "../wire/webhooks";
import { insertDeliveries, podRef } from "./consumer";
import { endpointOf } from "./endpoints";
import { messageBody, testMessage } from "./messages";

type DeliveryRow = Omit<WebhookDeliveryInfo, "status"> & { status: string };
const toInfo = (r: DeliveryRow): WebhookDeliveryInfo => ({
  id: r.id, endpointId: r.endpointId, messageId: r.messageId, type: r.type, status: r.status as WebhookDeliveryStatus, attempts: r.attempts, nextAttemptAt: r.nextAttemptAt,
  createdAt: r.createdAt, lastAttemptAt: r.lastAttemptAt, lastStatus: r.lastStatus, lastLatencyMs: r.lastLatencyMs, lastError: r.lastError, lastResponse: r.lastResponse,
});
const SELECT = { id: true, endpointId: true, messageId: true, type: true, status: true, attempts: true, nextAttemptAt: true, createdAt: true, lastAttemptAt: true, lastStatus: true, lastLatencyMs: true, lastError: true, lastResponse: true } as const;

/** `before`: the cursor of the previous page (createdAt|id of its last row). */
export async function listDeliveries(store: TapeStore, podId: string, endpointId: string, page: { before?: string; limit: number }): Promise<WebhookDeliveriesResponse> {
  await endpointOf(store, podId, endpointId);
  let where: object = { endpointId };
  if (page.before) {
    const [createdAt, id] = page.before.split("|");
    if (!createdAt || !id) throw new AppError(400, "invalid_request", "before: not a cursor this list gave");
    where = { endpointId, OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] };
  }
  const rows = await store.prisma.webhookDelivery.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.limit + 1, select: SELECT });
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const lastRow = shown[shown.length - 1];
  return { deliveries: shown.map(toInfo), nextCursor: more && lastRow ? `${lastRow.createdAt}|${lastRow.id}` : null };
}

/** A `webhook.test` message to this endpoint, sent now (also to a disabled endpoint: a way to check it before enabling it again). */
export async function sendTestDelivery(store: TapeStore, publicUrl: string, podId: string, endpointId: string): Promise<WebhookDeliveryInfo> {
  const endpoint = await endpointOf(store, podId, endpointId);
  const message = testMessage(randomUUID());
  await insertDeliveries(store, [{ endpointId, podId, message, payload: messageBody(message, endpoint.format as WebhookFormat, await podRef(store, podId, publicUrl)) }]);
  const row = await store.prisma.webhookDelivery.findUniqueOrThrow({ where: { endpointId_messageId: { endpointId, messageId: message.id } }, select: SELECT });
  return toInfo(row);
}

/** A new attempt of a delivery, now, with the same webhook-id and body; a full retry schedule follows if it fails. */
export async function redeliver(store: TapeStore, podId: string, endpointId: string, deliveryId: string): Promise<WebhookDeliveryInfo> {
  await endpointOf(store, podId, endpointId);
  const row = await store.prisma.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId }, select: { ...SELECT, claimedUntil: true } });
  if (!row) throw notFound("webhook delivery");
  if (row.status === "pending" && row.claimedUntil && row.claimedUntil > new Date().toISOString()) throw new AppError(409, "delivery_in_flight", "this delivery is being sent right now");
  const updated = await store.prisma.webhookDelivery.update({
    where: { id: row.id },
    data: { status: "pending", nextAttemptAt: new Date().toISOString(), scheduleFrom: row.attempts, claimedUntil: null },
    select: SELECT,
  });
  return toInfo(updated);
}
