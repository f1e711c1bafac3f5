// The Slack format: Block Kit messages for an incoming webhook. An inbox item
// becomes a header with its title, the pod, its kind and age, and a button to
// open it; other messages a line of text.
import type { WebhookMessage } from "./messages";
import { podInboxUrl, type PodRef } from "./pod-ref";

type Block = Record<string, unknown>;
export type SlackBody = { text: string; blocks: Block[] };

const plain = (text: string) => ({ type: "plain_text", text: text.slice(0, 150), emoji: false });
const mrkdwn = (text: string) => ({ type: "mrkdwn", text: text.slice(0, 3000) });
/** Slack's own date token: each reader sees the time in their zone, with a plain fallback. */
const slackDate = (iso: string) =>
  `<!date^${Math.floor(Date.parse(iso) / 1000)}^{date_short_pretty} {time}|${iso}>`;
const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function age(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
}

export function slackBody(message: WebhookMessage, pod: PodRef): SlackBody {
  const podName = escape(pod.name);
  if (message.kind === "opened") {
    const item = message.item;
    const kind = item.kind.replace(/_/g, " ");
    return {
      // The notification's text reads `<…>` as mentions and links too: escaped like the blocks.
      text: `Waiting in ${podName}: ${escape(item.title)}`,
      blocks: [
        { type: "header", text: plain(item.title) },
        {
          type: "section",
          fields: [
            mrkdwn(`*Pod*\n${podName}`),
            mrkdwn(`*Kind*\n${escape(kind)}`),
            mrkdwn(`*Waiting since*\n${slackDate(item.at)} (${age(item.at)})`),
          ],
        },
        {
          type: "actions",
          elements: [
            {
              type: "button",
              text: plain("Open in podwatch"),
              url: podInboxUrl(pod),
              style: "primary",
              action_id: "open_item",
            },
          ],
        },
      ],
    };
  }
  const text =
    message.kind === "closed"
      ? `Answered in ${pod.name}: inbox item ${message.itemId}`
      : message.kind === "event"
        ? `${pod.name}: ${message.event.type} by ${message.event.actor} (seq ${message.event.seq})`
        : `A test from podwatch (${pod.name}): this Slack webhook works.`;
  return { text: escape(text), blocks: [{ type: "section", text: mrkdwn(escape(text)) }] };
}
