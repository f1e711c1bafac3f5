// What a notification says about an inbox item, and which buttons it offers:
// only where the item can be settled in one tap without reading more.
import type { InboxItem, PodState } from "../domain/state/pod-state";
import { failingGates } from "../domain/state/reduce-evidence";
import { heldCallLine } from "../gates/held-call-summary";
import type { PushAction, PushPayload } from "../wire/notifications";
import { revealHidden } from "../wire/reveal-hidden";

/** Text a notification shows as it is (a title, a button): hidden, bidi and control characters as their codes. */
const plain = (text: string) =>
  revealHidden(text)
    .parts.map((p) => p.text)
    .join("");
const upTo = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Where tapping the notification leads: the pod's inbox. */
export const itemUrl = (podId: string) => `/pods/${encodeURIComponent(podId)}?tab=inbox`;

/** A button that only opens the item in podwatch (public/sw.js): the act route is never sent it. */
export const OPEN: PushAction = { action: "open", title: "Open in podwatch" };

/** The buttons an item allows (the act route maps each back to the inbox card's action). */
export function notificationActions(state: PodState, item: InboxItem): PushAction[] {
  if (item.kind === "decision" && item.subject.kind === "task") {
    // Approving is refused while a linked proof or evidence fails; rejecting stays possible.
    return failingGates(state, item.subject.id).length
      ? [{ action: "reject", title: "Reject" }]
      : [
          { action: "approve", title: "Approve" },
          { action: "reject", title: "Reject" },
        ];
  }
  if (item.kind === "job_acceptance")
    return [
      { action: "accept", title: "Accept" },
      { action: "reject", title: "Reject" },
    ];
  // A held tool call: allowing from a notification allows this call once, and only when its body shows
  // the whole input plainly (../gates/held-call-summary.ts); else the person reads it in podwatch.
  if (item.kind === "tool_approval") {
    return heldCallLine(state, item)?.whole
      ? [
          { action: "allow", title: "Allow once" },
          { action: "deny", title: "Deny" },
        ]
      : [{ action: "deny", title: "Deny" }, OPEN];
  }
  if (item.kind === "escalation") {
    const options = state.escalations[item.subject.id]?.options ?? [];
    if (options.length >= 1 && options.length <= 2)
      return options.map((o, i) => ({ action: `option:${i}`, title: upTo(plain(o), 40) }));
  }
  return [];
}

const age = (at: string, now: Date) => {
  const min = Math.max(0, Math.round((now.getTime() - Date.parse(at)) / 60_000));
  return min < 1
    ? "just now"
    : min < 60
      ? `${min} min ago`
      : min < 48 * 60
        ? `${Math.round(min / 60)} h ago`
        : `${Math.round(min / 1440)} days ago`;
};

/** A held call leads with what it would run, before the pod's name, so a long name never pushes it out of sight. */
function bodyHead(podName: string, state: PodState, item: InboxItem): string {
  const call = heldCallLine(state, item);
  return call ? `${call.text} · ${plain(podName)}` : `${plain(podName)} · ${item.kind.replace("_", " ")}`;
}

/** `reminder`: the item's deadline passed with `then: remind`; said in the title and body, and the device alerts again. */
export function openPayload(
  podId: string,
  podName: string,
  state: PodState,
  item: InboxItem,
  now: Date,
  reminder = false,
): Extract<PushPayload, { type: "open" }> {
  const title = plain(reminder ? `Overdue: ${item.title}` : item.title);
  return {
    type: "open",
    title: upTo(title, 120),
    body: `${bodyHead(podName, state, item)} · ${reminder ? "overdue, " : ""}waiting since ${age(item.at, now)}`,
    ...(reminder ? { reminder: true as const } : {}),
    tag: `${podId}:${item.id}`,
    at: item.at,
    data: { podId, itemId: item.id, url: itemUrl(podId) },
    actions: notificationActions(state, item),
  };
}

/** The notification's tag: the same on every device, so a withdrawal closes it everywhere. */
export const itemTag = (podId: string, itemId: string) => `${podId}:${itemId}`;
