// One Claude Code hook payload to podwatch's hook route, as `podwatch hook` sends it. Kept apart
// from client.ts on purpose: the command hook runs once per tool call, and this path must not
// load the event schemas (zod) that client.ts checks events with.
import { PodwatchError } from "./errors";
import { exchange, redirectError, safeJson } from "./http";
import { hookEventUuid } from "../../server/wire/hash";

export const HOOK_ROUTE = "/api/v1/hooks/claude-code";
export type UnreachableRule = "open" | "closed";
export type HookReply = { output: string; unreachable: UnreachableRule | null };
export type HookPost = {
  url: string;
  token: string;
  /** The hook input exactly as Claude Code gave it (so the server derives the same event ids). */
  body: string;
  /** Seconds the server may hold a gated call. */
  wait?: number;
  /** A payload replayed from the spool: recorded, never gated. */
  replay?: boolean;
  /** Give up when the server is silent this long. */
  idleMs: number;
  /** The agent's hook door (Claude Code's when absent). */
  route?: string;
};

/**
 * Appends events the hook wrote itself (usage, an unreachable gate, a dropped count) as the
 * token's member, to the token's pod: the server validates them, and their ids make a repeat
 * harmless. Plain JSON here, not client.ts, whose local schema check would load zod per hook.
 */
export async function postHookEvents(p: {
  url: string;
  token: string;
  events: Record<string, unknown>[];
  idleMs: number;
}): Promise<void> {
  const base = p.url.replace(/\/+$/, "");
  const call = async (method: string, path: string, body?: unknown) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers = {
      authorization: `Bearer ${p.token}`,
      ...(text === undefined
        ? {}
        : { "content-type": "application/json", "content-length": Buffer.byteLength(text) }),
    };
    return checked(
      await exchange({ method, url: `${base}${path}`, headers, body: text, idleMs: p.idleMs }),
      `${method} ${path}`,
    );
  };
  const me = await whoAmI(`${base}\n${p.token}`, () => call("GET", "/api/v1/me") as Promise<Me | null>);
  const events = p.events.map(({ hookId, ...e }) => ({
    ...e,
    ...(Array.isArray(hookId) ? { id: hookEventId(me.podId, me.memberId, hookId as string[]) } : {}),
    actor: me.memberId,
  }));
  await call(
    "POST",
    `/api/v1/pods/${encodeURIComponent(me.podId)}/events`,
    events.length === 1 ? events[0] : { events },
  );
}

type Me = { kind?: string; podId?: string; memberId?: string };
/** Who a token speaks for, asked once per process (a spool replay posts events many times over): a failed ask is not kept. */
const known = new Map<string, Promise<{ podId: string; memberId: string }>>();
function whoAmI(key: string, ask: () => Promise<Me | null>): Promise<{ podId: string; memberId: string }> {
  let me = known.get(key);
  if (!me) {
    me = ask().then((m) => {
      if (m?.kind !== "agent" || !m.podId || !m.memberId)
        throw new PodwatchError(
          403,
          "not_an_agent",
          "PODWATCH_TOKEN is not an agent token: hooks report as an agent",
        );
      return { podId: m.podId, memberId: m.memberId };
    });
    known.set(key, me);
    me.catch(() => known.delete(key));
  }
  return me;
}

/** An answer's body (parsed), or the error it stands for: a redirect, or a 4xx/5xx with podwatch's error envelope. */
function checked(res: Awaited<ReturnType<typeof exchange>>, what: string): unknown {
  if (res.status >= 300 && res.status < 400) throw redirectError(res, what);
  if (res.status >= 400) {
    const err = (safeJson(res.text) as { error?: { code?: string; message?: string } } | null)?.error;
    throw new PodwatchError(
      res.status,
      err?.code ?? `http_${res.status}`,
      err?.message ?? `${what} answered ${res.status}`,
    );
  }
  return safeJson(res.text);
}

/**
 * The id the hook route gives the event of a hook [session_id, hook_event_name, tool_use_id] of
 * this member. An event the hook writes in a hook's stead (a gate decided while podwatch was
 * unreachable) takes it, so if the hook did arrive after all, the tape keeps one of the two.
 */
export const hookEventId = (podId: string, memberId: string, hook: string[]) =>
  hookEventUuid(JSON.stringify([podId, memberId, ...hook]), "event");

/** Posts one hook; 2xx answers the hook's output JSON, anything else throws (status 0: unreachable or timed out). */
export async function postHook(p: HookPost): Promise<HookReply> {
  const q = new URLSearchParams();
  if (p.wait !== undefined) q.set("wait", String(Math.max(0, Math.floor(p.wait))));
  if (p.replay) q.set("replay", "1");
  const route = p.route ?? HOOK_ROUTE;
  const url = `${p.url.replace(/\/+$/, "")}${route}${q.size ? `?${q}` : ""}`;
  const headers = {
    authorization: `Bearer ${p.token}`,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(p.body),
  };
  const res = await exchange({ method: "POST", url, headers, body: p.body, idleMs: p.idleMs });
  checked(res, `POST ${route}`);
  const rule = String(res.headers["x-podwatch-unreachable"] ?? "");
  const output = res.text.trim() && safeJson(res.text) !== null ? res.text.trim() : "{}";
  return { output, unreachable: rule === "open" || rule === "closed" ? rule : null };
}
