"use client";
import type { PodSummary, PodsResponse } from "@/server/wire/pods";

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** GET JSON from our API; a failure throws with the server's own error message. `signal` cancels it. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { cache: "no-store", signal });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new ApiError(res.status, body?.error?.message ?? `request failed (${res.status})`);
  }
  return (await res.json()) as T;
}

export const fetchPods = (archived = false) => getJson<PodsResponse>(`/api/v1/pods${archived ? "?archived=1" : ""}`).then((r) => r.pods);
export const fetchPod = (podId: string) => getJson<PodSummary>(`/api/v1/pods/${encodeURIComponent(podId)}`);
