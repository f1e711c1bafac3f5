"use client";
// The pod page: tabs over one live state. The tab is in the URL (?tab=…),
// so every view can be linked to.
import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { PodStateView } from "@/server/pods/present-pod-state";
import { usePodState } from "./use-pod-state";
import { getJson } from "../shared/api-client";
import { useLiveTape } from "../tape/use-live-tape";
import { TaskBoard } from "./task-board";
import { TapeView } from "../tape/tape-view";
import { InboxPanel } from "../inbox/inbox-panel";
import { EvidenceView, JobsView, MembersView, RunsView } from "./pod-sections";
import { Badge, isStale, statusTone } from "../shared/ui";
import { AddTaskForm, MemberControls, PauseButton } from "./steer-controls";
import { RelativeTime } from "../shared/relative-time";

const TABS = ["board", "tape", "inbox", "evidence", "runs", "members", "job"] as const;
type Tab = (typeof TABS)[number];

export function PodView({ podId, canAct, head }: { podId: string; canAct: boolean; head?: number }) {
  const params = useSearchParams();
  const router = useRouter();
  const tab: Tab = (TABS as readonly string[]).includes(params.get("tab") ?? "") ? (params.get("tab") as Tab) : "board";
  const state = usePodState(podId);
  // One live subscription for the whole page: the tape shows it, the other views refetch on it.
  const liveTape = useLiveTape(podId, head);
  const select = (t: Tab) => router.replace(`?tab=${t}`, { scroll: false });

  return (
    <div className="space-y-4">
      {state.data && <PodStatus podId={podId} state={state.data} canAct={canAct} />}
      <nav aria-label="Pod views" className="-mx-4 overflow-x-auto px-4">
        <div role="tablist" className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
          {TABS.map((t) => (
            <button
              key={t}
              role="tab"
              aria-selected={tab === t}
              onClick={() => select(t)}
              className={`-mb-px shrink-0 border-b-2 px-3 py-2 text-sm capitalize ${tab === t ? "border-zinc-900 font-medium text-zinc-900 dark:border-zinc-100 dark:text-zinc-100" : "border-transparent text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200"}`}
            >
              {t}
              {t === "inbox" && state.data && state.data.inbox.length > 0 && <span className="ml-1.5 rounded-full bg-amber-100 px-1.5 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-300">{state.data.inbox.length}</span>}
            </button>
          ))}
        </div>
      </nav>
      {tab === "tape" ? (
        <TapeView podId={podId} liveTape={liveTape} />
      ) : state.isPending ? (
        <div className="h-40 animate-pulse rounded-lg bg-zinc-200/70 dark:bg-zinc-800/70" aria-label="Loading" />
      ) : state.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">Could not load this pod: {state.error.message}</p>
      ) : tab === "inbox" ? (
        <InboxPanel podId={podId} state={state.data} canAct={canAct} />
      ) : tab === "board" ? (
        <div className="space-y-3">
          {canAct && <AddTaskForm podId={podId} />}
          <BoardWithTimeTravel podId={podId} live={state.data} canAct={canAct} />
        </div>
      ) : tab === "evidence" ? (
        <EvidenceView podId={podId} state={state.data} />
      ) : tab === "runs" ? (
        <RunsView state={state.data} />
      ) : tab === "members" ? (
        <div className="space-y-6">
          {canAct && <MemberControls podId={podId} state={state.data} />}
          <MembersView state={state.data} />
        </div>
      ) : (
        <JobsView state={state.data} />
      )}
    </div>
  );
}

function PodStatus({ podId, state, canAct }: { podId: string; state: PodStateView; canAct: boolean }) {
  // Re-walking a long chain costs the server real work: do it after the page has painted.
  const [verifyNow, setVerifyNow] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setVerifyNow(true), 2_000);
    return () => clearTimeout(t);
  }, []);
  const verify = useQuery({
    queryKey: ["verify", podId],
    enabled: verifyNow,
    queryFn: () => getJson<{ ok: boolean; checked: number; firstBadSeq?: number }>(`/api/v1/pods/${podId}/verify`),
    staleTime: 60_000,
  });
  const stale = isStale(state.lastCheckpoint?.at);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="pod-status">
      <Badge tone={statusTone(state.status)}>{state.status}</Badge>
      {state.activeAgent && <Badge tone="sky">active agent: {state.activeAgent}</Badge>}
      {state.lastCheckpoint && (
        <span className={stale ? "text-amber-700 dark:text-amber-400" : "text-zinc-500"}>
          last checkpoint <RelativeTime iso={state.lastCheckpoint.at} />
        </span>
      )}
      {canAct && <PauseButton podId={podId} state={state} />}
      {verify.data && (
        <Badge tone={verify.data.ok ? "green" : "red"} title={verify.data.ok ? `chain of ${verify.data.checked} events verified` : `first bad seq ${verify.data.firstBadSeq}`}>
          <span data-testid="chain-badge">{verify.data.ok ? "chain verified" : `chain broken at #${verify.data.firstBadSeq}`}</span>
        </Badge>
      )}
    </div>
  );
}

/** The board now, or — with the scrubber — as it was at any earlier seq. */
function BoardWithTimeTravel({ podId, live, canAct }: { podId: string; live: PodStateView; canAct: boolean }) {
  const [atSeq, setAtSeq] = useState<number | null>(null);
  const past = useQuery({
    queryKey: ["state-at", podId, atSeq],
    enabled: atSeq !== null,
    queryFn: () => getJson<PodStateView>(`/api/v1/pods/${podId}/state?atSeq=${atSeq}`),
    placeholderData: (prev) => prev,
  });
  const shown = atSeq === null ? live : (past.data ?? live);
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label htmlFor="time-travel" className="text-zinc-500">Time travel</label>
        <input
          id="time-travel"
          type="range"
          min={1}
          max={Math.max(1, live.seq)}
          value={atSeq ?? live.seq}
          onChange={(e) => setAtSeq(Number(e.target.value) >= live.seq ? null : Number(e.target.value))}
          className="w-64 max-w-full accent-zinc-900 dark:accent-zinc-100"
          aria-valuetext={atSeq === null ? "now" : `as of seq ${atSeq}`}
        />
        <span className="tabular-nums" data-testid="time-travel-label">{atSeq === null ? `now (#${live.seq})` : `as of #${atSeq}`}</span>
        {atSeq !== null && (
          <button onClick={() => setAtSeq(null)} className="rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800">
            Back to live
          </button>
        )}
      </div>
      {atSeq !== null && <p className="rounded-md bg-sky-50 px-3 py-1.5 text-sm text-sky-800 dark:bg-sky-950 dark:text-sky-300">Showing the board and inbox as of seq {shown.seq}; new events keep arriving in the tape.</p>}
      <TaskBoard state={shown} podId={podId} canAct={canAct && atSeq === null} />
      {atSeq !== null && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="inbox-then">Inbox then: {shown.inbox.length ? shown.inbox.map((i) => i.title).join(" · ") : "empty"}</p>
      )}
    </div>
  );
}
