// The Webhooks section's server actions: the API twins of server/http/webhook-routes.ts,
// for pod admins, through the one chain (server/pods/perform-pod-action.ts), calling the same use-cases.
import { createWebhook, deleteWebhook, listWebhooks, updateWebhook } from "../webhooks/endpoints";
import { listDeliveries, redeliver, sendTestDelivery } from "../webhooks/deliveries";
import { wakeWebhookWorker } from "../webhooks/start-webhooks";
import { ZCreateWebhookInput, ZPodWebhooksInput, ZRedeliverInput, ZUpdateWebhookInput, ZWebhookDeliveriesInput, ZWebhookInput } from "../wire/webhooks";
import { definePodCall } from "../pods/perform-pod-action";

export const listWebhooksCall = definePodCall({ schema: ZPodWebhooksInput, need: "admin", run: (app, a) => listWebhooks(app.store, a.podId) });

export const createWebhookCall = definePodCall({
  schema: ZCreateWebhookInput,
  need: "admin",
  run: (app, a, actor) => createWebhook(app.store, app.config.webhookAllowPrivate, { podId: a.podId, createdBy: actor, ...a.webhook }),
});

export const updateWebhookCall = definePodCall({ schema: ZUpdateWebhookInput, need: "admin", run: (app, a) => updateWebhook(app.store, a.podId, a.endpointId, a.update) });

export const deleteWebhookCall = definePodCall({ schema: ZWebhookInput, need: "admin", run: (app, a) => deleteWebhook(app.store, a.podId, a.endpointId) });

export const testWebhookCall = definePodCall({
  schema: ZWebhookInput,
  need: "admin",
  run: async (app, a) => {
    const delivery = await sendTestDelivery(app.store, app.config.publicUrl, a.podId, a.endpointId);
    wakeWebhookWorker(app);
    return delivery;
  },
});

export const listWebhookDeliveriesCall = definePodCall({
  schema: ZWebhookDeliveriesInput,
  need: "admin",
  run: (app, a) => listDeliveries(app.store, a.podId, a.endpointId, { before: a.before, limit: a.limit }),
});

export const redeliverWebhookCall = definePodCall({
  schema: ZRedeliverInput,
  need: "admin",
  run: async (app, a) => {
    const delivery = await redeliver(app.store, a.podId, a.endpointId, a.deliveryId);
    wakeWebhookWorker(app);
    return delivery;
  },
});
