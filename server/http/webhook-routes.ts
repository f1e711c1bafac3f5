// A pod's outbound webhooks, managed by its admins: endpoints, their delivery
// log, "send a test" and "redeliver". The server actions in
// server/web/webhook-actions.ts call the same use-cases.
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from "../webhooks/endpoints";
import { listDeliveries, redeliver, sendTestDelivery, TooSoon } from "../webhooks/deliveries";
import { wakeWebhookWorker } from "../webhooks/start-webhooks";
import { AppError } from "../domain/errors";
import { ZCreateWebhookRequest, ZUpdateWebhookRequest, type WebhookCreated, type WebhookDeliveriesResponse, type WebhooksResponse } from "../wire/webhooks";
import { parseWith, readJsonBody, sendJson } from "./json";
import { adminActor, type Route } from "./route";

const ADMIN = { pod: "admin" } as const;

function pageOf(url: URL): { before?: string; limit: number } {
  const raw = url.searchParams.get("limit");
  const limit = raw === null ? 25 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError(400, "invalid_request", "limit: a whole number from 1 to 100");
  return { before: url.searchParams.get("before") ?? undefined, limit };
}

export const webhookRoutes: Route[] = [
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)\/webhooks$/,
    guard: ADMIN,
    run: async ({ app, res, params }) => sendJson(res, 200, { webhooks: await listWebhooks(app.store, params[0]!) } satisfies WebhooksResponse),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/webhooks$/,
    guard: ADMIN,
    run: async ({ app, req, res, params, identity }) => {
      const input = parseWith(ZCreateWebhookRequest, await readJsonBody(req));
      sendJson(res, 201, (await createWebhook(app.store, app.config.webhookAllowPrivate, { podId: params[0]!, createdBy: adminActor(identity), ...input })) satisfies WebhookCreated);
    },
  },
  {
    method: "PATCH",
    path: /^\/api\/v1\/pods\/([^/]+)\/webhooks\/([^/]+)$/,
    guard: ADMIN,
    run: async ({ app, req, res, params }) => sendJson(res, 200, await updateWebhook(app.store, params[0]!, params[1]!, parseWith(ZUpdateWebhookRequest, await readJsonBody(req)))),
  },
  {
    method: "DELETE",
    path: /^\/api\/v1\/pods\/([^/]+)\/webhooks\/([^/]+)$/,
    guard: ADMIN,
    run: async ({ app, res, params }) => sendJson(res, 200, await deleteWebhook(app.store, params[0]!, params[1]!)),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/webhooks\/([^/]+)\/test$/,
    guard: ADMIN,
    run: async ({ app, res, params }) => {
      const delivery = await sendTestDelivery(app.store, app.config.publicUrl, params[0]!, params[1]!).catch((e) => {
        if (e instanceof TooSoon) res.setHeader("retry-after", String(e.retryAfterSeconds));
        throw e;
      });
      wakeWebhookWorker(app);
      sendJson(res, 202, delivery);
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)\/webhooks\/([^/]+)\/deliveries$/,
    guard: ADMIN,
    run: async ({ app, res, params, url }) => sendJson(res, 200, (await listDeliveries(app.store, params[0]!, params[1]!, pageOf(url))) satisfies WebhookDeliveriesResponse),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/redeliver$/,
    guard: ADMIN,
    run: async ({ app, res, params }) => {
      const delivery = await redeliver(app.store, params[0]!, params[1]!, params[2]!);
      wakeWebhookWorker(app);
      sendJson(res, 202, delivery);
    },
  },
];
