// Standard Webhooks signing: the secret is `whsec_` + base64 of random bytes; a
// delivery's signature is `v1,` + base64 HMAC-SHA256 over "id.timestamp.body",
// keyed with the secret's decoded bytes.
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

/** A new signing secret (32 random bytes). */
export const newWebhookSecret = () => PREFIX + randomBytes(32).toString("base64");

export function signWebhook(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  return "v1," + createHmac("sha256", key).update(`${messageId}.${timestamp}.${body}`).digest("base64");
}

/** The headers of one attempt: the same id on every attempt, this attempt's time. */
export function webhookHeaders(
  secret: string,
  messageId: string,
  body: string,
  now = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "podwatch-webhooks/1",
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(secret, messageId, timestamp, body),
  };
}
