"use client";
// The line above the tabs: status, active agent, last checkpoint, pause, and the chain badge.
import { useEffect, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { PodStateView } from "@/server/wire/views";
import { callApi } from "../shared/api-client";
import { verifyTapeRoute } from "../shared/api-routes";
import { Badge, isStale, statusTone } from "../shared/ui";
import { RelativeTime } from "../shared/relative-time";
import { PauseButton } from "./steer-controls";
import { FormingNotice } from "./forming-needs";
import { CadenceAdherence } from "./cadence-adherence";

export function PodStatus({ podId, state, canAct }: { podId: string; state: PodStateView; canAct: boolean }) {
  // Re-walking a long chain costs the server real work: do it after the page has painted.
  const [verifyNow, setVerifyNow] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setVerifyNow(true), 2_000);
    return () => clearTimeout(t);
  }, []);
  const verify = useQuery({
    queryKey: ["verify", podId],
    enabled: verifyNow,
    queryFn: () => callApi(verifyTapeRoute, { podId }),
    staleTime: 60_000,
  });
  const stale = isStale(state.lastCheckpoint?.at, state.scope?.cadenceMinutes);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="pod-status">
      <Badge tone={statusTone(state.status)}>{state.status}</Badge>
      {state.activeAgent && <Badge tone="sky">active agent: {state.activeAgent}</Badge>}
      {state.lastCheckpoint && (
        <span className={stale ? "text-amber-700 dark:text-amber-400" : "text-zinc-500"}>
          last checkpoint <RelativeTime iso={state.lastCheckpoint.at} />
        </span>
      )}
      <CadenceAdherence cadence={state.cadence} cadenceMinutes={state.scope?.cadenceMinutes} />
      <FormingNotice state={state} />
      {canAct && <PauseButton podId={podId} state={state} />}
      {verify.data && (
        <Badge
          tone={verify.data.ok ? "green" : "red"}
          title={
            verify.data.ok
              ? `chain of ${verify.data.checked} events verified`
              : `first bad seq ${verify.data.firstBadSeq}`
          }
        >
          <span data-testid="chain-badge">
            {verify.data.ok ? "chain verified" : `chain broken at #${verify.data.firstBadSeq}`}
          </span>
        </Badge>
      )}
    </div>
  );
}
