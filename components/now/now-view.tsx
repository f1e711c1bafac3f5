"use client";
// "Now", the control room's home: every agent session of the person's pods, live, grouped by where
// it stands. Keyboard: j/k (or ↓/↑ on a session) move between sessions, Enter opens its pod's
// Sessions tab; a needs-you item's own keys (a, r) work on the focused card.
import { useEffect, useRef, type ReactNode } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { NowPod, NowSession } from "@/server/wire/now";
import { Empty, Skeleton } from "../shared/ui";
import { stepFocus } from "../inbox/use-inbox-focus";
import { useNow } from "./use-now";
import { matches, NO_FILTER, NowFilters, useNowFilter } from "./now-filters";
import { SessionRow, usd } from "./session-row";

const GROUPS: { state: NowSession["state"]; title: string; hint: string }[] = [
  { state: "needs-you", title: "Needs you", hint: "an agent waits on your answer" },
  { state: "working", title: "Working", hint: "a turn is under way" },
  { state: "idle", title: "Idle", hint: "the last turn ended; the session is open" },
  { state: "stale", title: "Stale", hint: "not ended, but silent" },
  { state: "ended-today", title: "Ended today", hint: "since midnight UTC" },
];

const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement && (["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName) || t.isContentEditable);
const keyOf = (s: NowSession) => `${s.podId}/${s.sessionId}`;
/** In a group, the longest in its state first; ended sessions the latest first. */
const byAge = (a: NowSession, b: NowSession) =>
  a.state === "ended-today" ? b.since.localeCompare(a.since) : a.since.localeCompare(b.since);

/** Today's cost of the agents of the sessions shown: each agent once per pod (its sessions share its day). */
function costToday(sessions: NowSession[]): number {
  const agents = new Map(sessions.map((s) => [`${s.podId}\u0000${s.agentId}`, s.agentCostTodayUsd ?? 0]));
  return [...agents.values()].reduce((sum, c) => sum + c, 0);
}

/** `renderActions`: a session's controls, rendered in its row (none when absent or null). */
export function NowView({ renderActions }: { renderActions?: (s: NowSession) => ReactNode }) {
  const now = useNow();
  const router = useRouter();
  const [filter, setFilter] = useNowFilter();
  const rows = useRef(new Map<string, HTMLLIElement>());
  const sessions = (now.data?.sessions ?? []).filter((s) => matches(filter, s));
  const groups = GROUPS.map((g) => ({
    ...g,
    sessions: sessions.filter((s) => s.state === g.state).sort(byAge),
  }));
  const order = groups.flatMap((g) => g.sessions.map(keyOf));
  const orderRef = useRef(order);
  useEffect(() => {
    orderRef.current = order;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typing(e.target) || e.metaKey || e.ctrlKey || e.altKey) return;
      const onRow = e.target instanceof HTMLLIElement && e.target.dataset.testid === "now-session";
      const down = e.key === "j" || (onRow && e.key === "ArrowDown");
      const up = e.key === "k" || (onRow && e.key === "ArrowUp");
      if (!down && !up) return;
      const list = orderRef.current;
      const current = list.findIndex((k) => rows.current.get(k)?.contains(document.activeElement));
      const next = stepFocus(current, list.length, down ? "j" : "k");
      if (next < 0) return;
      e.preventDefault();
      rows.current.get(list[next]!)?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (now.isPending)
    return <Skeleton label="Loading what your agents are doing" className="h-40 rounded-lg" />;
  if (now.isError)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        Could not load the sessions: {now.error.message}.{" "}
        <button className="underline" onClick={() => now.refetch()}>
          Try again
        </button>
      </p>
    );
  const all = now.data.sessions;
  return (
    <div className="space-y-4">
      <NowFilters pods={now.data.pods} sessions={all} filter={filter} onChange={setFilter} />
      <p className="text-sm text-zinc-700 dark:text-zinc-300" data-testid="now-counts">
        {groups.map((g, i) => (
          <span key={g.state}>
            {i > 0 && " · "}
            {g.title} <b className="tabular-nums">{g.sessions.length}</b>
          </span>
        ))}
        {" · "}Cost today{" "}
        <b className="tabular-nums" data-testid="now-cost-today">
          {usd(costToday(sessions))}
        </b>
      </p>
      {all.length === 0 ? (
        <NoSessions pods={now.data.pods} />
      ) : sessions.length === 0 ? (
        <Empty>
          No session matches these filters.{" "}
          <button className="underline" onClick={() => setFilter(NO_FILTER)}>
            Clear filters
          </button>
        </Empty>
      ) : (
        groups.map(
          (g) =>
            g.sessions.length > 0 && (
              <section key={g.state} aria-labelledby={`now-${g.state}`} data-testid={`now-group-${g.state}`}>
                <h2 id={`now-${g.state}`} className="mb-2 text-sm font-semibold">
                  {g.title} <span className="tabular-nums">({g.sessions.length})</span>{" "}
                  <span className="font-normal text-zinc-600 dark:text-zinc-400">— {g.hint}</span>
                </h2>
                <ul className="space-y-2">
                  {g.sessions.map((s) => {
                    const key = keyOf(s);
                    return (
                      <SessionRow
                        key={key}
                        ref={(el) => {
                          if (el) rows.current.set(key, el);
                          else rows.current.delete(key);
                        }}
                        s={s}
                        actions={renderActions?.(s)}
                        onOpen={() => router.push(`/pods/${encodeURIComponent(s.podId)}?tab=sessions`)}
                      />
                    );
                  })}
                </ul>
              </section>
            ),
        )
      )}
      {now.data.truncated && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Some sessions are left out (at most 100 a pod, 500 in all): filter by pod to see one pod&apos;s.
        </p>
      )}
    </div>
  );
}

function NoSessions({ pods }: { pods: NowPod[] }) {
  const connectable = pods.filter((p) => p.canConnect);
  if (pods.length === 0)
    return (
      <Empty>
        You are in no pods yet: ask a pod&apos;s lead to add you. Whoever may create pods starts one on{" "}
        <Link href="/pods" className="underline">
          Pods
        </Link>
        .
      </Empty>
    );
  return (
    <Empty>
      <span data-testid="now-empty">
        No agent sessions yet. An agent shows up here once it reports through its hooks.{" "}
        {connectable.length > 0 ? (
          <>
            Connect one:{" "}
            {connectable.slice(0, 5).map((p, i) => (
              <span key={p.id}>
                {i > 0 && ", "}
                <Link href={`/pods/${encodeURIComponent(p.id)}?tab=members`} className="underline">
                  {p.name}
                </Link>
              </span>
            ))}
            .
          </>
        ) : (
          <>Ask a pod&apos;s admin to connect one.</>
        )}
      </span>
    </Empty>
  );
}
