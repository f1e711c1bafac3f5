"use client";
// The pod page: tabs over one live state. The tab is in the URL (?tab=…),
// so every view can be linked to.
import dynamic from "next/dynamic";
import { useRouter, useSearchParams } from "next/navigation";
import { usePodState } from "./use-pod-state";
import { useLiveTape } from "../tape/use-live-tape";
import { TapeView } from "../tape/tape-view";
import { InboxPanel } from "../inbox/inbox-panel";
import { EvidenceView } from "../evidence/evidence-view";
import { PodStatus } from "./pod-status";
import { BoardWithTimeTravel } from "./time-travel-board";
import { RunsView } from "./runs-view";
import { JobsView } from "./jobs-view";
import { SessionsPanel } from "../sessions/sessions-panel";
import { PodTabs, panelId, tabId } from "./pod-tabs";
import { AccessEnded, ReadOnlyNotice } from "./read-only-notice";
import type { PodStateView } from "@/server/wire/views";
import { PodLifecycle } from "./pod-lifecycle";
import { PodSetup } from "./pod-setup";
import { AddTaskForm } from "./steer-controls";
import { Skeleton } from "../shared/ui";

// Tabs a visit rarely opens first load their code when opened, so the board comes up sooner.
const loadingTab = () => <Skeleton label="Loading" className="h-40 rounded-lg" />;
const SignalsPanel = dynamic(() => import("../signals/signals-panel").then((m) => m.SignalsPanel), {
  loading: loadingTab,
});
const MembersTab = dynamic(() => import("./members-tab").then((m) => m.MembersTab), { loading: loadingTab });

const TABS = [
  "board",
  "tape",
  "inbox",
  "sessions",
  "evidence",
  "runs",
  "signals",
  "members",
  "job",
  "setup",
] as const;
type Tab = (typeof TABS)[number];

/** The tabs that fit this pod and this reader: a job's tab where there is a job (or can be: contracting),
 * setup while forming (or while open), neither setup nor the people for a share link's onlooker. */
function visibleTabs(state: PodStateView | undefined, mode: string, onlooker: boolean, current: string) {
  return TABS.filter((t) =>
    t === "job"
      ? mode === "contracting" || !!state?.jobs.length || t === current
      : t === "setup"
        ? !onlooker && (state?.status === "forming" || t === current)
        : t === "members"
          ? !onlooker
          : true,
  );
}

/**
 * canAdmin: pod admin controls (members, tokens, links); publicUrl: this server's URL for snippets and links;
 * mode: the pod's; onlooker: read through a share link (no setup, no people, no emails).
 */
export function PodView({
  podId,
  canAct,
  canSteer = false,
  canAdmin = false,
  escalationRefused,
  publicUrl,
  head,
  mode = "collaboration",
  onlooker = false,
}: {
  podId: string;
  canAct: boolean;
  /** May steer its agents' sessions: one of the pod's approvers (a site admin who is none may not). */
  canSteer?: boolean;
  /** Why the pod's rules refuse this person's answers to escalations (a site admin who is no member). */
  escalationRefused?: string | null;
  canAdmin?: boolean;
  publicUrl?: string;
  head?: number;
  mode?: string;
  onlooker?: boolean;
}) {
  const params = useSearchParams();
  const router = useRouter();
  const state = usePodState(podId);
  const asked = params.get("tab") ?? "";
  const tabs = visibleTabs(state.data, mode, onlooker, asked);
  const tab: Tab = (tabs as readonly string[]).includes(asked) ? (asked as Tab) : "board";
  // One live subscription for the whole page: the tape shows it, the other views refetch on it.
  const liveTape = useLiveTape(podId, head);
  // The Signals tab's period stays chosen across tabs; other tabs' parameters (a linked seq) do not.
  const period = params.get("period");
  const select = (t: Tab) =>
    router.replace(`?tab=${t}${period ? `&period=${encodeURIComponent(period)}` : ""}`, { scroll: false });

  return (
    <div className="space-y-4">
      {state.data && <PodStatus podId={podId} state={state.data} canAct={canAct} />}
      {state.data && canAdmin && <PodLifecycle podId={podId} state={state.data} />}
      {!canAct && <ReadOnlyNotice />}
      <AccessEnded status={liveTape.status} reason={liveTape.ended} />
      <PodTabs
        tabs={tabs}
        current={tab}
        onSelect={select}
        extra={(t) =>
          t === "inbox" &&
          state.data &&
          state.data.inbox.length > 0 && (
            <span className="ml-1.5 rounded-full bg-amber-100 px-1.5 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-300">
              {state.data.inbox.length}
            </span>
          )
        }
      />
      <div role="tabpanel" id={panelId(tab)} aria-labelledby={tabId(tab)} className="min-w-0">
        {tab === "tape" ? (
          <TapeView podId={podId} liveTape={liveTape} />
        ) : tab === "signals" ? (
          <SignalsPanel podId={podId} />
        ) : state.isPending ? (
          <Skeleton label="Loading" className="h-40 rounded-lg" />
        ) : state.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            Could not load this pod: {state.error.message}
          </p>
        ) : tab === "inbox" ? (
          <InboxPanel
            podId={podId}
            state={state.data}
            canAct={canAct}
            escalationRefused={escalationRefused}
          />
        ) : tab === "board" ? (
          <div className="space-y-3">
            {canAct && <AddTaskForm podId={podId} />}
            <BoardWithTimeTravel podId={podId} live={state.data} canAct={canAct} />
          </div>
        ) : tab === "setup" ? (
          <PodSetup podId={podId} state={state.data} canAdmin={canAdmin} />
        ) : tab === "evidence" ? (
          <EvidenceView podId={podId} state={state.data} />
        ) : tab === "sessions" ? (
          <SessionsPanel podId={podId} state={state.data} canAct={canSteer} />
        ) : tab === "runs" ? (
          <RunsView state={state.data} />
        ) : tab === "members" ? (
          <MembersTab
            podId={podId}
            state={state.data}
            canAct={canAct}
            canAdmin={canAdmin}
            publicUrl={publicUrl ?? ""}
          />
        ) : (
          <JobsView state={state.data} />
        )}
      </div>
    </div>
  );
}
