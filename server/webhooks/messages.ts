// What one outbox batch means to webhook endpoints: a message per tape event and
// per inbox change, each with a stable id (the same when a batch is taken again,
// so a delivery is never added twice), and its body in each format.
import { createHash } from "node:crypto";
import type { InboxItem } from "../domain/state/pod-state";
import type { TapeEvent } from "../wire/events";
import { WEBHOOK_TEST_TYPE, type WebhookFormat } from "../wire/webhooks";
import { podInboxUrl, type PodRef } from "./pod-ref";
import { slackBody } from "./slack";

export type { PodRef };
export type WebhookMessage =
  | { id: string; type: string; timestamp: string; kind: "event"; event: TapeEvent }
  | { id: string; type: "inbox.opened"; timestamp: string; kind: "opened"; item: InboxItem }
  | { id: string; type: "inbox.closed"; timestamp: string; kind: "closed"; itemId: string }
  | { id: string; type: typeof WEBHOOK_TEST_TYPE; timestamp: string; kind: "test" };

const stableId = (key: string) => "msg_" + createHash("sha256").update(key).digest("hex").slice(0, 32);

export function eventMessage(event: TapeEvent): WebhookMessage {
  return {
    id: stableId(`event:${event.id}`),
    type: event.type,
    timestamp: event.receivedAt,
    kind: "event",
    event,
  };
}

/** `batchKey`: what makes this change unique (the batch's last seq: an item opened again later is a new message). */
export function inboxMessages(
  podId: string,
  batchKey: number,
  timestamp: string,
  opened: InboxItem[],
  closed: string[],
): WebhookMessage[] {
  return [
    ...opened.map((item): WebhookMessage => ({
      id: stableId(`opened:${podId}:${batchKey}:${item.id}`),
      type: "inbox.opened",
      timestamp,
      kind: "opened",
      item,
    })),
    ...closed.map((itemId): WebhookMessage => ({
      id: stableId(`closed:${podId}:${batchKey}:${itemId}`),
      type: "inbox.closed",
      timestamp,
      kind: "closed",
      itemId,
    })),
  ];
}

export function testMessage(nonce: string): WebhookMessage {
  return {
    id: stableId(`test:${nonce}`),
    type: WEBHOOK_TEST_TYPE,
    timestamp: new Date().toISOString(),
    kind: "test",
  };
}

/** The JSON a delivery carries, as sent (and signed) on every attempt. */
export function messageBody(message: WebhookMessage, format: WebhookFormat, pod: PodRef): string {
  if (format === "slack") return JSON.stringify(slackBody(message, pod));
  const pref = { id: pod.id, name: pod.name };
  const data =
    message.kind === "event"
      ? { pod: pref, event: message.event }
      : message.kind === "opened"
        ? { pod: pref, item: message.item, url: podInboxUrl(pod) }
        : message.kind === "closed"
          ? { pod: pref, itemId: message.itemId }
          : { pod: pref, message: "a test from podwatch: this endpoint receives and verifies webhooks" };
  return JSON.stringify({ type: message.type, timestamp: message.timestamp, data });
}
