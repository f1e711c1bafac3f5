"use client";
// What waits for a human on this pod. Controls render only for approvers; the
// server checks again on every action.
import { useQueryClient } from "@tanstack/react-query";
import { usePodState } from "./use-pod-state";
import { InboxItemCard } from "./inbox-item-card";
import { Empty } from "./ui";

export function InboxPanel({ podId, canAct }: { podId: string; canAct: boolean }) {
  const qc = useQueryClient();
  const state = usePodState(podId);
  if (state.isPending) return <div className="h-24 animate-pulse rounded-lg bg-zinc-200/70 dark:bg-zinc-800/70" aria-label="Loading the inbox" />;
  if (state.isError) return <p role="alert" className="text-sm text-red-700 dark:text-red-400">Could not load the inbox: {state.error.message}</p>;
  const items = state.data.inbox;
  const changed = () => void Promise.all([qc.invalidateQueries({ queryKey: ["state", podId] }), qc.invalidateQueries({ queryKey: ["inbox"] })]);
  return (
    <section aria-label="Inbox" className="space-y-2">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
        Needs a human <span className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-300" data-testid="inbox-count">{items.length}</span>
      </h2>
      {items.length === 0 ? (
        <Empty>Nothing waits for a decision.</Empty>
      ) : (
        <ul className="space-y-2">
          {items.map((item) => (
            <InboxItemCard key={item.id} podId={podId} item={item} blockedBy={item.subject.kind === "task" ? (state.data.board.find((t) => t.taskId === item.subject.id)?.failingGates ?? []) : []} canAct={canAct} onChanged={changed} />
          ))}
        </ul>
      )}
    </section>
  );
}
