// A pod's outbound webhooks, managed by its admins: endpoints, their delivery log, "send a test"
// and "redeliver". Each is declared once here; its REST route, server action, OpenAPI entry and
// reference come from the declaration (server/operations/operation.ts).
import { z } from "zod";
import { defineOperation, ZPodId } from "../operations/operation";
import * as wire from "../wire/webhooks";
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from "./endpoints";
import { listDeliveries, redeliver, sendTestDelivery } from "./deliveries";
import { wakeWebhookWorker } from "./start-webhooks";

const ADMIN = { pod: "admin" } as const;
const tag = "Webhooks";
const ZEndpointId = z.string().min(1).max(100);
const ZEndpoint = z.object({ podId: ZPodId, endpointId: ZEndpointId });
const PAGE_LIMIT = "a whole number from 1 to 100";

export const webhookOperations = {
  listWebhooks: defineOperation({
    name: "listWebhooks",
    summary:
      "The pod's endpoints, oldest first: whether each is enabled, why it was disabled, since when it fails; never the secret.",
    tag,
    input: z.object({ podId: ZPodId }),
    output: wire.ZWebhooksResponse,
    guard: ADMIN,
    http: { method: "GET", path: "/api/v1/pods/{podId}/webhooks", status: 200 },
    action: true,
    run: async ({ app }, a) => ({ webhooks: await listWebhooks(app.store, a.podId) }),
  }),
  createWebhook: defineOperation({
    name: "createWebhook",
    summary:
      "Adds an endpoint (`format`: `standard`, the default, or `slack`); its signing secret (`whsec_…`) is in this answer only. " +
      "400 `webhook_url_refused` for a URL that is not http(s), carries a user name, or whose host resolves to an internal " +
      "address (checked again at every connection); 409 `too_many_webhooks` past 20 a pod.",
    tag,
    input: z.object({ podId: ZPodId, webhook: wire.ZCreateWebhookRequest }),
    output: wire.ZWebhookCreated,
    guard: ADMIN,
    http: { method: "POST", path: "/api/v1/pods/{podId}/webhooks", status: 201, body: "webhook" },
    action: true,
    run: ({ app, actor }, a) =>
      createWebhook(app.store, app.config.webhookAllowPrivate, {
        podId: a.podId,
        createdBy: actor,
        ...a.webhook,
      }),
  }),
  updateWebhook: defineOperation({
    name: "updateWebhook",
    summary:
      "Enables or disables an endpoint, or changes its format or events. Disabling fails what it still had to send " +
      "(redeliverable); enabling starts afresh (no failing-since, no reason).",
    tag,
    input: ZEndpoint.extend({ update: wire.ZUpdateWebhookRequest }),
    output: wire.ZWebhookEndpointInfo,
    guard: ADMIN,
    http: {
      method: "PATCH",
      path: "/api/v1/pods/{podId}/webhooks/{endpointId}",
      status: 200,
      body: "update",
    },
    action: true,
    run: ({ app }, a) => updateWebhook(app.store, a.podId, a.endpointId, a.update),
  }),
  deleteWebhook: defineOperation({
    name: "deleteWebhook",
    summary: "Deletes an endpoint and its delivery log; answers the endpoint as it was.",
    tag,
    input: ZEndpoint,
    output: wire.ZWebhookEndpointInfo,
    guard: ADMIN,
    http: { method: "DELETE", path: "/api/v1/pods/{podId}/webhooks/{endpointId}", status: 200 },
    action: true,
    run: ({ app }, a) => deleteWebhook(app.store, a.podId, a.endpointId),
  }),
  testWebhook: defineOperation({
    name: "testWebhook",
    summary:
      "Sends a `webhook.test` message now (also to a disabled endpoint). One per endpoint per 10 s; sooner, " +
      "429 `webhook_test_too_soon` with `Retry-After`.",
    tag,
    input: ZEndpoint,
    output: wire.ZWebhookDeliveryInfo,
    guard: ADMIN,
    http: { method: "POST", path: "/api/v1/pods/{podId}/webhooks/{endpointId}/test", status: 202 },
    action: true,
    run: async ({ app }, a) => {
      const delivery = await sendTestDelivery(app.store, app.config.publicUrl, a.podId, a.endpointId);
      wakeWebhookWorker(app);
      return delivery;
    },
  }),
  listWebhookDeliveries: defineOperation({
    name: "listWebhookDeliveries",
    summary:
      "The delivery log, newest first; `nextCursor` is the next page's `before`. Delivered and failed deliveries are " +
      "pruned 7 days after their last attempt, but each endpoint keeps its newest 10.",
    tag,
    input: ZEndpoint.extend({
      before: z.string().max(100).optional(),
      // Over HTTP it arrives as query text, from a server action as a number: both are coerced.
      limit: z.coerce
        .number({ error: PAGE_LIMIT })
        .int(PAGE_LIMIT)
        .min(1, PAGE_LIMIT)
        .max(100, PAGE_LIMIT)
        .default(25),
    }),
    output: wire.ZWebhookDeliveriesResponse,
    guard: ADMIN,
    http: { method: "GET", path: "/api/v1/pods/{podId}/webhooks/{endpointId}/deliveries", status: 200 },
    action: true,
    run: ({ app }, a) =>
      listDeliveries(app.store, a.podId, a.endpointId, { before: a.before, limit: a.limit }),
  }),
  redeliverWebhook: defineOperation({
    name: "redeliverWebhook",
    summary:
      "One more attempt now, with the same `webhook-id` and body (then the retry schedule again if it fails).",
    tag,
    input: ZEndpoint.extend({ deliveryId: z.string().min(1).max(100) }),
    output: wire.ZWebhookDeliveryInfo,
    guard: ADMIN,
    http: {
      method: "POST",
      path: "/api/v1/pods/{podId}/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver",
      status: 202,
    },
    action: true,
    run: async ({ app }, a) => {
      const delivery = await redeliver(app.store, a.podId, a.endpointId, a.deliveryId);
      wakeWebhookWorker(app);
      return delivery;
    },
  }),
};
