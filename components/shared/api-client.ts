"use client";
import type { PodSummary, PodsResponse } from "@/server/wire/pods";
import type { OperationInput, OperationOutput } from "@/server/operations/operation";
import type { Operations } from "@/server/operations/operations";
import { API_ROUTES } from "./api-routes";

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

type RestName = keyof typeof API_ROUTES;

/** Fills the path's `{name}`s, the query and the body from one input, as the operation declares them. */
function requestOf(name: RestName, input: Record<string, unknown>): { url: string; init: RequestInit & { headers?: Record<string, string> } } {
  const route = API_ROUTES[name];
  const used = new Set<string>();
  const path = route.path.replace(/\{([^}]+)\}/g, (_, k: string) => (used.add(k), encodeURIComponent(String(input[k]))));
  const query = new URLSearchParams();
  for (const k of route.query as readonly string[]) if (input[k] !== undefined) query.set(k, String(input[k]));
  const url = query.size ? `${path}?${query}` : path;
  if (route.body === null) return { url, init: { method: route.method } };
  const body = route.body ? input[route.body] : Object.fromEntries(Object.entries(input).filter(([k]) => !used.has(k)));
  return { url, init: { method: route.method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) } };
}

/** `base`: the server's origin (none in the browser: the page's own); `headers`: beside the cookies. */
export type CallOptions = { signal?: AbortSignal; base?: string; headers?: Record<string, string> };

/**
 * Calls an operation over REST with its declared input; the answer's type is the operation's
 * output schema's (types only: no zod, no server code reaches the browser).
 */
export async function callApi<N extends RestName>(name: N, input: OperationInput<Operations[N]>, options: CallOptions = {}): Promise<OperationOutput<Operations[N]>> {
  const { url, init } = requestOf(name, input);
  const headers = { ...init.headers, ...options.headers };
  const res = await fetch(`${options.base ?? ""}${url}`, { ...init, headers, cache: "no-store", signal: options.signal });
  if (!res.ok) {
    const body: { error?: { message?: string } } | null = await res.json().catch(() => null);
    throw new ApiError(res.status, body?.error?.message ?? `request failed (${res.status})`);
  }
  return res.json();
}
