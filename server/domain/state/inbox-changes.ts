// How one append changed a pod's inbox: what reached it (or changed, e.g. a
// deadline marked passed) and what left it. Written to the outbox in the same
// transaction as the events, so notifications and webhooks never miss a change.
import type { InboxItem, PodState } from "./pod-state";

export type InboxChanges = { opened: InboxItem[]; closed: string[] };

export function inboxChanges(before: PodState, after: PodState): InboxChanges {
  if (before.inbox === after.inbox) return { opened: [], closed: [] };
  const opened = Object.values(after.inbox).filter((item) => before.inbox[item.id] !== item && !sameItem(before.inbox[item.id], item));
  const closed = Object.keys(before.inbox).filter((id) => !Object.hasOwn(after.inbox, id));
  return { opened, closed };
}

/** Reducers rebuild items as new objects; an item only counts as changed when its content did. */
function sameItem(a: InboxItem | undefined, b: InboxItem): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
