// A pod's webhook endpoints: created by its admins (the secret shown once),
// listed without the secret, enabled or disabled, deleted with their log.
import { randomUUID } from "node:crypto";
import type { TapeStore } from "../db/tape-store";
import { AppError, notFound } from "../domain/errors";
import {
  WEBHOOKS_PER_POD,
  type TCreateWebhookRequest,
  type TUpdateWebhookRequest,
  type WebhookCreated,
  type WebhookEndpointInfo,
  type WebhookFormat,
  type WebhookTopic,
} from "../wire/webhooks";
import { newWebhookSecret } from "./signature";
import { checkWebhookUrl } from "../shared/ssrf";

type EndpointRow = {
  id: string;
  podId: string;
  url: string;
  format: string;
  events: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  createdAt: string;
  createdBy: string;
};

export async function createWebhook(
  store: TapeStore,
  allowPrivate: boolean,
  input: { podId: string; createdBy: string } & TCreateWebhookRequest,
): Promise<WebhookCreated> {
  const url = await checkWebhookUrl(input.url, allowPrivate);
  if ((await store.prisma.webhookEndpoint.count({ where: { podId: input.podId } })) >= WEBHOOKS_PER_POD) {
    throw new AppError(
      409,
      "too_many_webhooks",
      `a pod has at most ${WEBHOOKS_PER_POD} webhook endpoints; delete one first`,
    );
  }
  const secret = newWebhookSecret();
  const row = await store.prisma.webhookEndpoint.create({
    data: {
      id: randomUUID(),
      podId: input.podId,
      url,
      format: input.format,
      events: JSON.stringify(input.events),
      secret,
      createdAt: new Date().toISOString(),
      createdBy: input.createdBy,
    },
  });
  return { ...toInfo(row), secret, note: "This secret is shown once; store it now to verify signatures." };
}

export async function listWebhooks(store: TapeStore, podId: string): Promise<WebhookEndpointInfo[]> {
  return (
    await store.prisma.webhookEndpoint.findMany({ where: { podId }, orderBy: { createdAt: "asc" } })
  ).map(toInfo);
}

async function endpointOf(store: TapeStore, podId: string, endpointId: string) {
  const row = await store.prisma.webhookEndpoint.findFirst({ where: { id: endpointId, podId } });
  if (!row) throw notFound("webhook endpoint");
  return row;
}

/** Disabling stops its pending deliveries (marked failed, redeliverable); enabling starts afresh (no failing-since). */
export async function updateWebhook(
  store: TapeStore,
  podId: string,
  endpointId: string,
  update: TUpdateWebhookRequest,
): Promise<WebhookEndpointInfo> {
  const row = await endpointOf(store, podId, endpointId);
  const data: Partial<EndpointRow> = {};
  if (update.format !== undefined) data.format = update.format;
  if (update.events !== undefined) data.events = JSON.stringify(update.events);
  if (update.enabled === true && !row.enabled)
    Object.assign(data, { enabled: true, disabledReason: null, failingSince: null });
  if (update.enabled === false && row.enabled) {
    await disableEndpoint(store, endpointId, "disabled by a pod admin");
    return toInfo(await store.prisma.webhookEndpoint.update({ where: { id: endpointId }, data }));
  }
  return toInfo(await store.prisma.webhookEndpoint.update({ where: { id: endpointId }, data }));
}

/** Disables an endpoint once (true if this call did) and fails what it still had to send. */
export async function disableEndpoint(
  store: TapeStore,
  endpointId: string,
  reason: string,
): Promise<boolean> {
  const { count } = await store.prisma.webhookEndpoint.updateMany({
    where: { id: endpointId, enabled: true },
    data: { enabled: false, disabledReason: reason },
  });
  await store.prisma.webhookDelivery.updateMany({
    where: { endpointId, status: "pending" },
    data: { status: "failed", nextAttemptAt: null, lastError: `not sent: ${reason}` },
  });
  return count === 1;
}

export async function deleteWebhook(
  store: TapeStore,
  podId: string,
  endpointId: string,
): Promise<WebhookEndpointInfo> {
  const row = await endpointOf(store, podId, endpointId);
  await store.prisma.webhookEndpoint.delete({ where: { id: row.id } }); // its deliveries go with it (ON DELETE CASCADE)
  return toInfo(row);
}

export { endpointOf };

export function toInfo(r: EndpointRow): WebhookEndpointInfo {
  return {
    id: r.id,
    podId: r.podId,
    url: r.url,
    format: r.format as WebhookFormat,
    events: JSON.parse(r.events) as WebhookTopic[],
    enabled: r.enabled,
    disabledReason: r.disabledReason,
    failingSince: r.failingSince,
    createdAt: r.createdAt,
    createdBy: r.createdBy,
  };
}
