// How one append changed a pod's inbox: what reached it (or changed, e.g. a
// deadline marked passed) and what left it. Written to the outbox in the same
// transaction as the events, so notifications and webhooks never miss a change.
import type { InboxItem, PodState } from "./pod-state";
import { changedKeys } from "./shared-record";

export type InboxChanges = { opened: InboxItem[]; closed: string[] };

export function inboxChanges(before: PodState, after: PodState): InboxChanges {
  // Only the keys whose item is not the very same: the cost is the change's, not the inbox's.
  const { put, drop } = changedKeys(before.inbox, after.inbox);
  const was = (id: string) => (Object.hasOwn(before.inbox, id) ? before.inbox[id] : undefined);
  return {
    opened: put.map((id) => after.inbox[id]!).filter((item) => !sameItem(was(item.id), item)),
    closed: drop,
  };
}

/** Reducers rebuild items as new objects; an item only counts as changed when its content did. */
function sameItem(a: InboxItem | undefined, b: InboxItem): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
