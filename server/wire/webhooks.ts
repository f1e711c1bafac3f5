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
  .transform((t) => [...new Set(t)])
  .describe("the tape's event types, and inbox.opened / inbox.closed");

/** POST /api/v1/pods/{podId}/webhooks. The URL's host is checked when the endpoint is created and again at every connection. */
export const ZCreateWebhookRequest = z.object({
  url: z
    .string()
    .trim()
    .min(1, "enter the URL")
    .max(WEBHOOK_URL_MAX, `a URL of at most ${WEBHOOK_URL_MAX} characters`),
  format: z.enum(WEBHOOK_FORMATS).default("standard"),
  events: ZTopics,
});
export type TCreateWebhookRequest = z.infer<typeof ZCreateWebhookRequest>;

/** PATCH /api/v1/pods/{podId}/webhooks/{id}: enabling clears "failing since" and the reason it was disabled. */
export const ZUpdateWebhookRequest = z
  .object({
    enabled: z.boolean().optional(),
    format: z.enum(WEBHOOK_FORMATS).optional(),
    events: ZTopics.optional(),
  })
  .refine(
    (u) => u.enabled !== undefined || u.format !== undefined || u.events !== undefined,
    "send enabled, format or events",
  );
export type TUpdateWebhookRequest = z.infer<typeof ZUpdateWebhookRequest>;

/** An endpoint as listed: never its secret. */
export const ZWebhookEndpointInfo = z.object({
  id: z.string(),
  podId: z.string(),
  url: z.string(),
  format: z.enum(WEBHOOK_FORMATS),
  events: z.array(z.enum(WEBHOOK_TOPICS)),
  enabled: z.boolean(),
  disabledReason: z
    .string()
    .nullable()
    .describe("Why it was disabled (by an admin, or after a day of failures)."),
  failingSince: z.string().nullable().describe("The first failed attempt since its last success."),
  createdAt: z.string(),
  createdBy: z.string(),
});
export type WebhookEndpointInfo = z.infer<typeof ZWebhookEndpointInfo>;
/** A new endpoint with its signing secret (`whsec_…`), shown this once. */
export const ZWebhookCreated = ZWebhookEndpointInfo.extend({ secret: z.string(), note: z.string() });
export type WebhookCreated = z.infer<typeof ZWebhookCreated>;
export const ZWebhooksResponse = z.object({ webhooks: z.array(ZWebhookEndpointInfo) });
export type WebhooksResponse = z.infer<typeof ZWebhooksResponse>;

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
/** One message to one endpoint, as its log shows it. `messageId` is the `webhook-id` header. */
export const ZWebhookDeliveryInfo = z.object({
  id: z.string(),
  endpointId: z.string(),
  messageId: z.string().describe("The `webhook-id` header: the same on every attempt and redelivery."),
  type: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  lastStatus: z
    .number()
    .int()
    .nullable()
    .describe("The last HTTP status, null when no answer came (refused, timed out, SSRF)."),
  lastLatencyMs: z.number().nullable(),
  lastError: z.string().nullable(),
  lastResponse: z
    .string()
    .nullable()
    .describe("The first KiB of the last answer (control characters but tab and newline removed)."),
});
export type WebhookDeliveryInfo = z.infer<typeof ZWebhookDeliveryInfo>;
/** Newest first; `nextCursor` pages on (as `before`). */
export const ZWebhookDeliveriesResponse = z.object({
  deliveries: z.array(ZWebhookDeliveryInfo),
  nextCursor: z.string().nullable(),
});
export type WebhookDeliveriesResponse = z.infer<typeof ZWebhookDeliveriesResponse>;
