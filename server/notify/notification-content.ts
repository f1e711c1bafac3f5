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
/** Where tapping an idle agent's notification leads: Now, its session's message box focused, to type its next word. */
export const resumeUrl = (sessionId: string) => `/?resume=${encodeURIComponent(sessionId)}`;
/** The words a Resume from a notification's button sends (nobody typed any). */
export const RESUME_TEXT = "Carry on.";

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
  // An agent held idle at its Stop: one tap resumes it ("Carry on."); its words are typed in podwatch.
  if (item.kind === "idle") return [{ action: "resume", title: "Resume" }];
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
  if (call) return `${call.text} · ${plain(podName)}`;
  // "<agent> is idle in <pod>": the agent's name is in the title, the pod's follows it.
  if (item.kind === "idle") return "Waiting for you to resume it";
  return `${plain(podName)} · ${item.kind.replace("_", " ")}`;
}

/** "<agent> is idle in <pod>", for a session held idle at its Stop. */
function idleTitle(state: PodState, item: InboxItem, podName: string): string | null {
  if (item.kind !== "idle") return null;
  const session = Object.hasOwn(state.sessions, item.subject.id)
    ? state.sessions[item.subject.id]
    : undefined;
  const agentId = session?.agentId ?? "An agent";
  const name = Object.hasOwn(state.members, agentId) ? state.members[agentId]!.displayName : agentId;
  return `${name} is idle in ${podName}`;
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
  const title = plain(reminder ? `Overdue: ${item.title}` : (idleTitle(state, item, podName) ?? item.title));
  return {
    type: "open",
    title: upTo(title, 120),
    body: `${bodyHead(podName, state, item)} · ${reminder ? "overdue, " : ""}waiting since ${age(item.at, now)}`,
    ...(reminder ? { reminder: true as const } : {}),
    tag: `${podId}:${item.id}`,
    at: item.at,
    data: { podId, itemId: item.id, url: item.kind === "idle" ? resumeUrl(item.subject.id) : itemUrl(podId) },
    actions: notificationActions(state, item),
  };
}

/** The notification's tag: the same on every device, so a withdrawal closes it everywhere. */
export const itemTag = (podId: string, itemId: string) => `${podId}:${itemId}`;
