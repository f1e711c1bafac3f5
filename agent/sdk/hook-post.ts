// One Claude Code hook payload to podwatch's hook route, as `podwatch hook` sends it. Kept apart
// from client.ts on purpose: the command hook runs once per tool call, and this path must not
// load the event schemas (zod) that client.ts checks events with.
import { createHash } from "node:crypto";
import { PodwatchError } from "./errors";
import { exchange, redirectError, safeJson } from "./http";

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
};

/**
 * Appends events the hook wrote itself (usage, an unreachable gate, a dropped count) as the
 * token's member, to the token's pod: the server validates them, and their ids make a repeat
 * harmless. Plain JSON here, not client.ts, whose local schema check would load zod per hook.
 */
export async function postHookEvents(p: { url: string; token: string; events: Record<string, unknown>[]; idleMs: number }): Promise<void> {
  const base = p.url.replace(/\/+$/, "");
  const call = async (method: string, path: string, body?: unknown) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers = { authorization: `Bearer ${p.token}`, ...(text === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(text) }) };
    const res = await exchange({ method, url: `${base}${path}`, headers, body: text, idleMs: p.idleMs });
    if (res.status >= 300 && res.status < 400) throw redirectError(res, `${method} ${path}`);
    if (res.status >= 400) {
      const err = (safeJson(res.text) as { error?: { code?: string; message?: string } } | null)?.error;
      throw new PodwatchError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? `${method} ${path} answered ${res.status}`);
    }
    return safeJson(res.text);
  };
  const me = (await call("GET", "/api/v1/me")) as { kind?: string; podId?: string; memberId?: string } | null;
  if (me?.kind !== "agent" || !me.podId || !me.memberId) throw new PodwatchError(403, "not_an_agent", "PODWATCH_TOKEN is not an agent token: hooks report as an agent");
  const events = p.events.map(({ hookId, ...e }) => ({ ...e, ...(Array.isArray(hookId) ? { id: hookEventId(me.podId!, me.memberId!, hookId as string[]) } : {}), actor: me.memberId }));
  await call("POST", `/api/v1/pods/${encodeURIComponent(me.podId)}/events`, events.length === 1 ? events[0] : { events });
}

/**
 * The id the hook route gives the event of a hook [session_id, hook_event_name, tool_use_id] of
 * this member (the contract's derivation: a UUID from the SHA-256 of pod, member, session, event
 * and tool call). An event the hook writes in a hook's stead (a gate decided while podwatch was
 * unreachable) takes it, so if the hook did arrive after all, the tape keeps one of the two.
 */
export function hookEventId(podId: string, memberId: string, hook: string[]): string {
  const h = createHash("sha256").update(`claude-code-hook|${JSON.stringify([podId, memberId, ...hook])}|event`).digest("hex").slice(0, 32).split("");
  h[12] = "8";
  h[16] = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const x = h.join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** Posts one hook; 2xx answers the hook's output JSON, anything else throws (status 0: unreachable or timed out). */
export async function postHook(p: HookPost): Promise<HookReply> {
  const q = new URLSearchParams();
  if (p.wait !== undefined) q.set("wait", String(Math.max(0, Math.floor(p.wait))));
  if (p.replay) q.set("replay", "1");
  const url = `${p.url.replace(/\/+$/, "")}${HOOK_ROUTE}${q.size ? `?${q}` : ""}`;
  const headers = { authorization: `Bearer ${p.token}`, "content-type": "application/json", "content-length": Buffer.byteLength(p.body) };
  const res = await exchange({ method: "POST", url, headers, body: p.body, idleMs: p.idleMs });
  if (res.status >= 300 && res.status < 400) throw redirectError(res, `POST ${HOOK_ROUTE}`);
  if (res.status >= 400) {
    const err = (safeJson(res.text) as { error?: { code?: string; message?: string } } | null)?.error;
    throw new PodwatchError(res.status, err?.code ?? `http_${res.status}`, err?.message ?? `POST ${HOOK_ROUTE} answered ${res.status}`);
  }
  const rule = String(res.headers["x-podwatch-unreachable"] ?? "");
  const output = res.text.trim() && safeJson(res.text) !== null ? res.text.trim() : "{}";
  return { output, unreachable: rule === "open" || rule === "closed" ? rule : null };
}
