// Outbound webhooks, as the admin routes and server actions take and answer them.
import { z } from "zod";
import { EVENT_TYPES } from "./vocabulary";

export const WEBHOOK_FORMATS = ["standard", "slack"] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
/** Inbox changes an endpoint may ask for, beside the tape's event types. */
export const WEBHOOK_INBOX_CHANGES = ["inbox.opened", "inbox.closed"] as const;
export const WEBHOOK_TOPICS = [...WEBHOOK_INBOX_CHANGES, ...EVENT_TYPES] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];
/** The message "Send a test" sends (never from the tape). */
export const WEBHOOK_TEST_TYPE = "webhook.test";
export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOKS_PER_POD = 20;

const ZTopics = z
  .array(z.enum(WEBHOOK_TOPICS, { error: "unknown event type or inbox change" }))
  .min(1, "choose at least one event type or inbox change")
  .max(WEBHOOK_TOPICS.length)
  .transform((t) => [...new Set(t)]);

/** POST /api/v1/pods/{podId}/webhooks. The URL's host is checked when the endpoint is created and again at every connection. */
export const ZCreateWebhookRequest = z.object({
  url: z.string().trim().min(1, "enter the URL").max(WEBHOOK_URL_MAX, `a URL of at most ${WEBHOOK_URL_MAX} characters`),
  format: z.enum(WEBHOOK_FORMATS).default("standard"),
  events: ZTopics,
});
export type TCreateWebhookRequest = z.infer<typeof ZCreateWebhookRequest>;

/** PATCH /api/v1/pods/{podId}/webhooks/{id}: enabling clears "failing since" and the reason it was disabled. */
export const ZUpdateWebhookRequest = z
  .object({ enabled: z.boolean().optional(), format: z.enum(WEBHOOK_FORMATS).optional(), events: ZTopics.optional() })
  .refine((u) => u.enabled !== undefined || u.format !== undefined || u.events !== undefined, "send enabled, format or events");
export type TUpdateWebhookRequest = z.infer<typeof ZUpdateWebhookRequest>;

/** An endpoint as listed: never its secret. */
export type WebhookEndpointInfo = {
  id: string;
  podId: string;
  url: string;
  format: WebhookFormat;
  events: WebhookTopic[];
  enabled: boolean;
  /** Why it was disabled (by an admin, or after a day of failures). */
  disabledReason: string | null;
  /** The first failed attempt since its last success. */
  failingSince: string | null;
  createdAt: string;
  createdBy: string;
};
/** A new endpoint with its signing secret (`whsec_…`), shown this once. */
export type WebhookCreated = WebhookEndpointInfo & { secret: string; note: string };
export type WebhooksResponse = { webhooks: WebhookEndpointInfo[] };

export type WebhookDeliveryStatus = "pending" | "delivered" | "failed";
/** One message to one endpoint, as its log shows it. `messageId` is the `webhook-id` header. */
export type WebhookDeliveryInfo = {
  id: string;
  endpointId: string;
  messageId: string;
  type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  /** The last HTTP status, null when no answer came (refused, timed out, SSRF). */
  lastStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  /** The first KiB of the last answer. */
  lastResponse: string | null;
};
/** GET …/webhooks/{id}/deliveries?before=<cursor>&limit=: newest first; `nextCursor` pages on. */
export type WebhookDeliveriesResponse = { deliveries: WebhookDeliveryInfo[]; nextCursor: string | null };

const ZPodId = z.string().min(1);
const ZEndpointId = z.string().min(1).max(100);
export const ZPodWebhooksInput = z.object({ podId: ZPodId });
export const ZCreateWebhookInput = z.object({ podId: ZPodId, webhook: ZCreateWebhookRequest });
export const ZUpdateWebhookInput = z.object({ podId: ZPodId, endpointId: ZEndpointId, update: ZUpdateWebhookRequest });
export const ZWebhookInput = z.object({ podId: ZPodId, endpointId: ZEndpointId });
export const ZWebhookDeliveriesInput = z.object({ podId: ZPodId, endpointId: ZEndpointId, before: z.string().max(100).optional(), limit: z.number().int().min(1).max(100).default(25) });
export const ZRedeliverInput = z.object({ podId: ZPodId, endpointId: ZEndpointId, deliveryId: z.string().min(1).max(100) });
