"use client";
// "Now" as server state, kept live a pod at a time (../shared/use-live-pod-parts.ts). Any commit in
// a pod ("pods:count") may change a session's turn, so that pod's part is read again, at most once
// per pod per half second. The minute's backstop also turns a silent session stale on time.
import type { NowResponse } from "@/server/wire/now";
import { callApi } from "../shared/api-client";
import { readNowRoute } from "../shared/api-routes";
import { useLivePodParts } from "../shared/use-live-pod-parts";

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
  return useLivePodParts({
    key: "now",
    readAll: () => callApi(readNowRoute, {}),
    readPod: (podId) => callApi(readNowRoute, { podId }),
    merge,
    on: ["count", "inbox"],
    windowMs: 500,
  });
}
