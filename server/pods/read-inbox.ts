// The inbox across pods: everything waiting for a human in the pods this
// caller may see, oldest first, with whether they may act on each.
import type { TapeStore } from "../db/tape-store";
import { atLeast, maySeeItem, type Identity } from "../domain/access/policy";
import { failingGates } from "../domain/state/reduce-evidence";
import { escalationAnswerRefusal } from "../domain/state/reduce-decisions";
import type { InboxEntry } from "../wire/views";
import { visiblePods, type VisiblePod } from "./visible-pods";
import { inboxContext } from "./inbox-context";
import { levelAllows, readLevels } from "../notify/preferences";
import type { NotifyLevel } from "../wire/notifications";

/** `podId`: that pod's items only (none when the caller may not see it). */
export async function readInbox(store: TapeStore, identity: Identity, podId?: string): Promise<InboxEntry[]> {
  const only = podId === undefined ? undefined : new Set([podId]);
  return inboxOf(store, identity, await visiblePods(store, identity, only));
}

/** The inbox of pods already read (the Now view reads them once for its sessions and their items). */
export async function inboxOf(
  store: TapeStore,
  identity: Identity,
  pods: readonly VisiblePod[],
): Promise<InboxEntry[]> {
  const entries: InboxEntry[] = [];
  // A person's notification preferences decide what their default view shows (server/notify/preferences.ts).
  const levels =
    identity.kind === "user" ? await readLevels(store, identity.userId) : new Map<string, NotifyLevel>();
  for (const { pod, state, access } of pods) {
    const canAct = identity.kind === "user" && atLeast(access, "approver");
    // The rule the write path applies, asked here so a card offers no answer it would refuse.
    const escalationRefused =
      identity.kind === "user" && canAct ? escalationAnswerRefusal(state, identity.email) : null;
    const level = levels.get(pod.id) ?? "all";
    for (const item of Object.values(state.inbox)) {
      if (!maySeeItem(access, item)) continue;
      const blockedBy = item.subject.kind === "task" ? failingGates(state, item.subject.id) : [];
      entries.push({
        ...item,
        context: inboxContext(state, item),
        podId: pod.id,
        podName: pod.name,
        canAct,
        ...(item.kind === "escalation" && escalationRefused ? { answerRefused: escalationRefused } : {}),
        blockedBy,
        muted: !levelAllows(level, item.kind),
      });
    }
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}
