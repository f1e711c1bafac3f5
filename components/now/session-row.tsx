"use client";
// One agent session in "Now": who, which program, which pod (one click away), where it stands and
// for how long, what its agent cost, and, when it needs the person, the items themselves, answerable
// with the inbox's own card. `actions`: the session's controls, when the page gives any.
import { forwardRef, type KeyboardEvent, type ReactNode } from "react";
import Link from "next/link";
import type { NowSession } from "@/server/wire/now";
import { AgentKindBadge } from "../inbox/agent-kind-badge";
import { InboxItemCard } from "../inbox/inbox-item-card";
import { RelativeTime } from "../shared/relative-time";

export const usd = (n: number) => `$${n < 0.01 && n > 0 ? n.toFixed(4) : n.toFixed(2)}`;

function Standing({ s }: { s: NowSession }) {
  switch (s.state) {
    case "needs-you":
      return (
        <>
          Waiting for you since <RelativeTime iso={s.since} />
        </>
      );
    case "working":
      return (
        <>
          Turn began <RelativeTime iso={s.since} />
          {s.turn?.tool && s.turn.toolSince && (
            <>
              {" · running "}
              <span className="font-mono" data-testid="now-tool">
                {s.turn.tool}
              </span>{" "}
              since <RelativeTime iso={s.turn.toolSince} />
            </>
          )}
        </>
      );
    case "idle":
      return (
        <>
          Turn ended <RelativeTime iso={s.since} />
          {s.idleHeldUntil && (
            <span className="font-medium text-amber-800 dark:text-amber-300" data-testid="now-held-idle">
              {" · waiting for you to resume"}
            </span>
          )}
        </>
      );
    case "stale":
      return (
        <>
          Silent since <RelativeTime iso={s.since} />
        </>
      );
    case "ended-today":
      return (
        <>
          Ended <RelativeTime iso={s.since} />
        </>
      );
  }
}

type Props = { s: NowSession; actions?: ReactNode; onOpen: () => void };

export const SessionRow = forwardRef<HTMLLIElement, Props>(function SessionRow({ s, actions, onOpen }, ref) {
  const podHref = `/pods/${encodeURIComponent(s.podId)}?tab=sessions`;
  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>) => {
    if (e.key === "Enter" && e.target === e.currentTarget) onOpen();
  };
  return (
    <li
      ref={ref}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid="now-session"
      data-state={s.state}
      data-agent={s.agentId}
      aria-label={`${s.agentName} in ${s.podName}`}
      className="min-w-0 space-y-2 rounded-lg border border-zinc-200 bg-white p-3 outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="font-medium break-words">{s.agentName}</span>
        {s.kind ? (
          <AgentKindBadge kind={s.kind} />
        ) : (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">other agent</span>
        )}
        {s.parentSessionId && <span className="text-xs text-zinc-600 dark:text-zinc-400">subagent</span>}
        <Link href={podHref} className="text-sm text-sky-800 underline break-words dark:text-sky-300">
          {s.podName}
        </Link>
        {s.connectedBy && (
          <span className="text-xs break-words text-zinc-600 dark:text-zinc-400">
            connected by {s.connectedBy.name}
          </span>
        )}
        {s.agentCostTodayUsd !== null && (
          <span
            className="ml-auto text-sm text-zinc-700 tabular-nums dark:text-zinc-300"
            title="What this agent's usage reports add up to today (UTC) in this pod, all its sessions"
            data-testid="now-cost"
          >
            {usd(s.agentCostTodayUsd)}{" "}
            <span className="text-xs text-zinc-600 dark:text-zinc-400">agent today</span>
          </span>
        )}
      </div>
      <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="now-standing">
        <Standing s={s} />
        {s.lastCheckpointAt && (
          <span className="text-zinc-600 dark:text-zinc-400">
            {" · last checkpoint "}
            <RelativeTime iso={s.lastCheckpointAt} />
          </span>
        )}
        {s.model && <span className="text-zinc-600 dark:text-zinc-400"> · {s.model}</span>}
      </p>
      {actions && <div data-testid="now-session-actions">{actions}</div>}
      {s.items.length > 0 && (
        <ul className="space-y-2" aria-label={`Waiting for you from ${s.agentName}`}>
          {s.items.map((item) => (
            <InboxItemCard
              key={item.id}
              podId={item.podId}
              podName={item.podName}
              item={item}
              blockedBy={item.blockedBy}
              canAct={item.canAct}
            />
          ))}
        </ul>
      )}
    </li>
  );
});
