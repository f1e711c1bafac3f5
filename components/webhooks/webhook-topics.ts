// What an endpoint may ask for, as the browser offers it: the inbox changes, then
// the tape's event types. The wire holds the same lists (with zod); the types tie them.
import { EVENT_TYPES } from "@/server/wire/vocabulary";
import type { WebhookFormat, WebhookTopic } from "@/server/wire/webhooks";

export const INBOX_TOPICS = [
  { value: "inbox.opened", label: "An item waits in the inbox" },
  { value: "inbox.closed", label: "An inbox item was answered" },
] as const satisfies readonly { value: WebhookTopic; label: string }[];

export const EVENT_TOPICS: readonly WebhookTopic[] = EVENT_TYPES;

export const FORMATS = [
  { value: "standard", label: "Standard Webhooks (signed JSON)" },
  { value: "slack", label: "Slack (incoming webhook, Block Kit)" },
] as const satisfies readonly { value: WebhookFormat; label: string }[];
