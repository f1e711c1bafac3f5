// An endpoint's delivery log (newest first, paged), "Send a test" and "Redeliver",
// and its pruning: delivered and failed deliveries go after DELIVERY_RETENTION_DAYS.
import type { TapeStore } from "../db/tape-store";
import { AppError, notFound } from "../domain/errors";
import {
  WEBHOOK_TEST_TYPE,
  type WebhookDeliveriesResponse,
  type WebhookDeliveryInfo,
  type WebhookDeliveryStatus,
  type WebhookFormat,
} from "../wire/webhooks";
import { insertDeliveries, podRef } from "./consumer";
import { endpointOf } from "./endpoints";
import { messageBody, testMessage } from "./messages";

type DeliveryRow = Omit<WebhookDeliveryInfo, "status"> & { status: string };
const toInfo = (r: DeliveryRow): WebhookDeliveryInfo => ({
  id: r.id,
  endpointId: r.endpointId,
  messageId: r.messageId,
  type: r.type,
  status: r.status as WebhookDeliveryStatus,
  attempts: r.attempts,
  nextAttemptAt: r.nextAttemptAt,
  createdAt: r.createdAt,
  lastAttemptAt: r.lastAttemptAt,
  lastStatus: r.lastStatus,
  lastLatencyMs: r.lastLatencyMs,
  lastError: r.lastError,
  lastResponse: r.lastResponse,
});
const SELECT = {
  id: true,
  endpointId: true,
  messageId: true,
  type: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  createdAt: true,
  lastAttemptAt: true,
  lastStatus: true,
  lastLatencyMs: true,
  lastError: true,
  lastResponse: true,
} as const;

/** `before`: the cursor of the previous page (createdAt|id of its last row). */
export async function listDeliveries(
  store: TapeStore,
  podId: string,
  endpointId: string,
  page: { before?: string; limit: number },
): Promise<WebhookDeliveriesResponse> {
  await endpointOf(store, podId, endpointId);
  let where: object = { endpointId };
  if (page.before) {
    const [createdAt, id] = page.before.split("|");
    if (!createdAt || !id) throw new AppError(400, "invalid_request", "before: not a cursor this list gave");
    where = { endpointId, OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] };
  }
  const rows = await store.prisma.webhookDelivery.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit + 1,
    select: SELECT,
  });
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const lastRow = shown[shown.length - 1];
  return {
    deliveries: shown.map(toInfo),
    nextCursor: more && lastRow ? `${lastRow.createdAt}|${lastRow.id}` : null,
  };
}

/** At most one test per endpoint this often: each is a stored row and an outbound request. */
export const TEST_EVERY_MS = 10_000;

/** Refused for now: `retryAfterSeconds` until it may be asked again (the HTTP route's Retry-After). */
export class TooSoon extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, "webhook_test_too_soon", message);
  }
}

const tooSoon = (waitMs: number) => {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new TooSoon(
    `a test went to this endpoint less than ${TEST_EVERY_MS / 1000} s ago; send another in ${seconds} s`,
    seconds,
  );
};

/** A `webhook.test` message to this endpoint, sent now (also to a disabled endpoint: a way to check it before enabling it again); one per endpoint per TEST_EVERY_MS. */
export async function sendTestDelivery(
  store: TapeStore,
  publicUrl: string,
  podId: string,
  endpointId: string,
): Promise<WebhookDeliveryInfo> {
  const endpoint = await endpointOf(store, podId, endpointId);
  const now = Date.now();
  const last = await store.prisma.webhookDelivery.findFirst({
    where: { endpointId, type: WEBHOOK_TEST_TYPE },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
  if (last && Date.parse(last.createdAt) + TEST_EVERY_MS > now)
    throw tooSoon(Date.parse(last.createdAt) + TEST_EVERY_MS - now);
  // Its id is the endpoint's and the 10 s window's: requests at once (past the check together) add one row.
  const window = Math.floor(now / TEST_EVERY_MS);
  const message = testMessage(`${endpointId}:${window}`);
  const added = await insertDeliveries(store, [
    {
      endpointId,
      podId,
      message,
      payload: messageBody(message, endpoint.format as WebhookFormat, await podRef(store, podId, publicUrl)),
    },
  ]);
  if (!added) throw tooSoon((window + 1) * TEST_EVERY_MS - now);
  const row = await store.prisma.webhookDelivery.findUniqueOrThrow({
    where: { endpointId_messageId: { endpointId, messageId: message.id } },
    select: SELECT,
  });
  return toInfo(row);
}

/** A new attempt of a delivery, now, with the same webhook-id and body; a full retry schedule follows if it fails. */
export async function redeliver(
  store: TapeStore,
  podId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryInfo> {
  await endpointOf(store, podId, endpointId);
  const row = await store.prisma.webhookDelivery.findFirst({
    where: { id: deliveryId, endpointId },
    select: { ...SELECT, claimedUntil: true },
  });
  if (!row) throw notFound("webhook delivery");
  if (row.status === "pending" && row.claimedUntil && row.claimedUntil > new Date().toISOString())
    throw new AppError(409, "delivery_in_flight", "this delivery is being sent right now");
  const updated = await store.prisma.webhookDelivery.update({
    where: { id: row.id },
    data: {
      status: "pending",
      nextAttemptAt: new Date().toISOString(),
      scheduleFrom: row.attempts,
      claimedUntil: null,
    },
    select: SELECT,
  });
  return toInfo(updated);
}

/** Delivered and failed deliveries are kept this long after their last attempt (or creation, if never tried)… */
export const DELIVERY_RETENTION_DAYS = 7;
/** …except each endpoint's newest few, whatever their age, so its log always shows how it went last. */
export const DELIVERIES_KEPT_PER_ENDPOINT = 10;

/** Deletes the deliveries past retention (pending ones never); returns how many. */
export async function pruneDeliveries(store: TapeStore, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - DELIVERY_RETENTION_DAYS * 86_400_000).toISOString();
  return store.prisma.$executeRaw`DELETE FROM webhook_delivery
    WHERE status IN ('delivered', 'failed') AND COALESCE(last_attempt_at, created_at) < ${cutoff}
      AND id NOT IN (SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY endpoint_id ORDER BY created_at DESC, id DESC) AS n FROM webhook_delivery) AS newest WHERE n <= ${DELIVERIES_KEPT_PER_ENDPOINT})`;
}
