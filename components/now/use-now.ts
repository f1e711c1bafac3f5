"use client";
// "Now" as server state: read once, then kept live a pod at a time. Any commit in a pod the person
// may see ("pods:count" on the cross-pod feed, the socket the inbox and the pods list share) has
// that pod's part read again, at most once per pod per half second; many pods changing at once are
// one full read. Every minute as a backstop, and so silence turns a session stale on time.
import { useEffect } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { NowResponse } from "@/server/wire/now";
import { watchPods } from "../shared/socket-client";
import { callApi } from "../shared/api-client";
import { readNowRoute } from "../shared/api-routes";

const KEY = ["now"];
/** Past this many pods changed in one window, one full read costs less than one read per pod. */
const MAX_POD_READS = 8;

function merge(old: NowResponse, podId: string, part: NowResponse): NowResponse {
  return {
    ...part,
    // In place, so the pod filter's order does not move; gone when the person lost it.
    pods: old.pods.some((p) => p.id === podId)
      ? old.pods.flatMap((p) => (p.id === podId ? part.pods : [p]))
      : [...old.pods, ...part.pods],
    sessions: [...old.sessions.filter((s) => s.podId !== podId), ...part.sessions],
    truncated: old.truncated || part.truncated,
  };
}

export function useNow() {
  const qc = useQueryClient();
  useEffect(() => {
    const pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const readChanged = async () => {
      timer = undefined;
      const pods = [...pending];
      pending.clear();
      if (pods.length > MAX_POD_READS) return void qc.invalidateQueries({ queryKey: KEY });
      for (const podId of pods) {
        const part = await callApi(readNowRoute, { podId }).catch(() => null);
        if (!part) return void qc.invalidateQueries({ queryKey: KEY });
        qc.setQueryData<NowResponse>(KEY, (old) => old && merge(old, podId, part));
      }
    };
    // One read at a time: an older part never lands over a newer one.
    let reading = Promise.resolve();
    const changed = ({ podId }: { podId: string }) => {
      pending.add(podId);
      timer ??= setTimeout(() => void (reading = reading.then(readChanged)), 500);
    };
    const unwatch = watchPods({
      joined: () => void qc.refetchQueries({ queryKey: KEY }, { cancelRefetch: false }),
      count: changed,
      inbox: changed,
    });
    return () => {
      clearTimeout(timer);
      unwatch();
    };
  }, [qc]);
  return useQuery({ queryKey: KEY, queryFn: () => callApi(readNowRoute, {}), refetchInterval: 60_000 });
}
