"use client";
// What waits for a human on this pod. Controls render only for approvers; the
// server checks again on every action.
import type { PodStateView } from "@/server/wire/views";
import { InboxItemCard } from "./inbox-item-card";
import { useInboxFocus } from "./use-inbox-focus";
import { Empty } from "../shared/ui";

export function InboxPanel({
  podId,
  state,
  canAct,
  escalationRefused,
}: {
  podId: string;
  state: PodStateView;
  canAct: boolean;
  escalationRefused?: string | null;
}) {
  const items = state.inbox;
  const { bind } = useInboxFocus(items.map((i) => i.id));
  return (
    <section aria-label="Inbox" className="space-y-2">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
        Needs a human{" "}
        <span
          className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-300"
          data-testid="inbox-count"
        >
          {items.length}
        </span>
      </h2>
      {items.length === 0 ? (
        <Empty>Nothing waits for a decision.</Empty>
      ) : (
        <ul className="space-y-2">
          {items.map((item, i) => (
            <InboxItemCard
              key={item.id}
              {...bind(item.id, i)}
              podId={podId}
              item={item}
              blockedBy={
                item.subject.kind === "task"
                  ? (state.board.find((t) => t.taskId === item.subject.id)?.failingGates ?? [])
                  : []
              }
              canAct={canAct}
              escalationRefused={escalationRefused}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
