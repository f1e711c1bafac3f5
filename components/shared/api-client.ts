"use client";
import type { OperationInput, OperationOutput } from "@/server/operations/operation";
import type { Operations } from "@/server/operations/operations";

export class ApiError extends Error {
  /** `retryAfter`: the answer's Retry-After header, if any (a busy server says when to come back). */
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter: string | null = null,
  ) {
    super(message);
  }
}

/** The server's own error message (the API's envelope), else the status. */
async function failure(res: Response): Promise<ApiError> {
  const body: { error?: { message?: string } } | null = await res.json().catch(() => null);
  const message = body?.error?.message ?? `request failed (${res.status})`;
  return new ApiError(res.status, message, res.headers.get("retry-after"));
}

/** One operation's REST route, as components/shared/api-routes.ts exports it. */
type ApiRoute = {
  name: keyof Operations;
  method: string;
  path: string;
  query: readonly string[];
  body: string | null;
};

/** Fills the path's `{name}`s, the query and the body from one input, as the operation declares them. */
function requestOf(
  route: ApiRoute,
  input: Record<string, unknown>,
): { url: string; init: RequestInit & { headers?: Record<string, string> } } {
  const used = new Set<string>();
  const path = route.path.replace(
    /\{([^}]+)\}/g,
    (_, k: string) => (used.add(k), encodeURIComponent(String(input[k]))),
  );
  const query = new URLSearchParams();
  for (const k of route.query) if (input[k] !== undefined) query.set(k, String(input[k]));
  const url = query.size ? `${path}?${query}` : path;
  if (route.body === null) return { url, init: { method: route.method } };
  const body = route.body
    ? input[route.body]
    : Object.fromEntries(Object.entries(input).filter(([k]) => !used.has(k)));
  return {
    url,
    init: {
      method: route.method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    },
  };
}

/** `base`: the server's origin (none in the browser: the page's own); `headers`: beside the cookies. */
export type CallOptions = { signal?: AbortSignal; base?: string; headers?: Record<string, string> };

/**
 * Calls an operation over REST with its declared input (`route`: its export in ./api-routes.ts);
 * the answer's type is the operation's output schema's (types only: no zod, no server code
 * reaches the browser).
 */
export async function callApi<R extends ApiRoute>(
  route: R,
  input: OperationInput<Operations[R["name"]]>,
  options: CallOptions = {},
): Promise<OperationOutput<Operations[R["name"]]>> {
  const { url, init } = requestOf(route, input);
  const res = await fetch(`${options.base ?? ""}${url}`, {
    ...init,
    headers: { ...init.headers, ...options.headers },
    cache: "no-store",
    signal: options.signal,
  });
  if (!res.ok) throw await failure(res);
  return res.json();
}
