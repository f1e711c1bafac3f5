"use client";
// The pod's projections (board, inbox, …) as server state: read once with react-query, then kept
// up to date by the pod's change notices ("pod:delta": what an event changed), applied in place.
// The view is read again only after a gap (a notice that starts past what the page holds, e.g.
// after a reconnect) or when a notice says so; a live event never costs the page the whole state.
import { useEffect } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { PodStateView } from "@/server/wire/views";
import type { PodDeltaFrame } from "@/server/wire/socket";
import { getSocket } from "../shared/socket-client";
import { callApi } from "../shared/api-client";
import { readPodStateRoute } from "../shared/api-routes";
import { applyStateDelta, deltaFits } from "./apply-state-delta";

const stateKey = (podId: string) => ["state", podId];
/** Reads keyed under the state (the signals tab's all-time figures, the budgets) follow the tape, at most this often. */
const DERIVED_EVERY_MS = 2_000;

/** A read that lost a race with notices keeps the newer view the notices made. */
async function readState(qc: QueryClient, podId: string): Promise<PodStateView> {
  const fresh = await callApi(readPodStateRoute, { podId });
  const held = qc.getQueryData<PodStateView>(stateKey(podId));
  return held && held.seq > fresh.seq ? held : fresh;
}

export function usePodState(podId: string) {
  const qc = useQueryClient();
  useEffect(() => {
    const socket = getSocket();
    let derivedTimer: ReturnType<typeof setTimeout> | undefined;
    // One read at a time: a second gap while one is in flight is answered by it.
    const readAgain = () =>
      void qc.refetchQueries({ queryKey: stateKey(podId), exact: true }, { cancelRefetch: false });
    const onDelta = (frame: PodDeltaFrame) => {
      if (frame.podId !== podId) return;
      // Only those on screen are read again (react-query refetches active queries).
      derivedTimer ??= setTimeout(() => {
        derivedTimer = undefined;
        void qc.invalidateQueries({ queryKey: stateKey(podId), predicate: (q) => q.queryKey.length > 2 });
      }, DERIVED_EVERY_MS);
      const view = qc.getQueryData<PodStateView>(stateKey(podId));
      if (!view) return; // still loading: the load reads the newest state
      if (frame.reread) return readAgain();
      const fits = deltaFits(view, frame);
      if (fits === "apply") qc.setQueryData(stateKey(podId), applyStateDelta(view, frame));
      else if (fits === "gap") readAgain();
    };
    // Notices sent while the socket was away are lost: read the view again once it is back.
    socket.on("pod:delta", onDelta);
    socket.io.on("reconnect", readAgain);
    return () => {
      clearTimeout(derivedTimer);
      socket.off("pod:delta", onDelta);
      socket.io.off("reconnect", readAgain);
    };
  }, [podId, qc]);
  return useQuery({ queryKey: stateKey(podId), queryFn: () => readState(qc, podId) });
}
