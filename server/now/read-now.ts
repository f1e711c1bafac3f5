// "Now": every agent session of the pods the caller may see, where it stands (the domain's
// classification), with the inbox items the caller may answer for it. Reads each pod's cached
// state (its projection); the tape is never read. Bounded per pod and in all.
import type { TapeStore } from "../db/tape-store";
import type { Identity } from "../domain/access/policy";
import { atLeast } from "../domain/access/policy";
import { itemsBySession } from "../domain/now/attribute-items";
import { classifySession, NOW_STATES, STALE_AFTER_MS, startOfUtcDay } from "../domain/now/classify-session";
import type { AgentSession, PodState } from "../domain/state/pod-state";
import { isApprover } from "../domain/state/rules";
import { AGENT_KINDS, type AgentKind } from "../domain/vocabulary";
import type { InboxEntry } from "../wire/views";
import type { NowResponse, NowSession } from "../wire/now";
import { inboxOf } from "../pods/read-inbox";
import { visiblePods } from "../pods/visible-pods";

/** The most sessions shown per pod (a pod keeps at most MAX_SESSIONS per agent) and in all. */
export const MAX_NOW_PER_POD = 100;
export const MAX_NOW_SESSIONS = 500;

const kindOf = (via: string): AgentKind | null =>
  (AGENT_KINDS as readonly string[]).includes(via) ? (via as AgentKind) : null;

/** What the agent's usage reports with a cost add up to today (UTC) in this pod: its signals' day. */
function agentCostToday(state: PodState, agentId: string, now: number): number | null {
  const agent = Object.hasOwn(state.signals.agents, agentId) ? state.signals.agents[agentId]! : undefined;
  const day = new Date(startOfUtcDay(now)).toISOString().slice(0, 10);
  return agent && Object.hasOwn(agent.days, day) ? agent.days[day]!.costUsd : null;
}

type PodOfNow = { podId: string; podName: string; canSteer: boolean };
type Connectors = Map<string, string>;

/** Who connected each agent of these pods ("pod|agent" → id): the maker of its newest live token. */
async function connectorsOf(store: TapeStore, podIds: string[]): Promise<Connectors> {
  const tokens = await store.prisma.agentToken.findMany({
    where: { podId: { in: podIds }, revokedAt: null },
    select: { podId: true, memberId: true, createdBy: true },
    orderBy: { createdAt: "asc" },
  });
  return new Map(tokens.map((t) => [`${t.podId}|${t.memberId}`, t.createdBy]));
}

/** The person by the name the pod knows them by (their id when it knows none). */
function personIn(state: PodState, id: string | undefined) {
  if (id === undefined) return null;
  const member = Object.hasOwn(state.members, id) ? state.members[id] : undefined;
  return { id, name: member?.displayName ?? id };
}

function podSessions(state: PodState, pod: PodOfNow, items: InboxEntry[], now: number, by: Connectors) {
  const { podId, podName, canSteer } = pod;
  const mine = itemsBySession(
    state,
    items.filter((i) => i.canAct),
  );
  const out: NowSession[] = [];
  for (const s of Object.values(state.sessions)) {
    const waiting = mine.get(s.sessionId) ?? [];
    const c = classifySession(s, waiting[0] ?? null, { now });
    if (!c) continue;
    const member = Object.hasOwn(state.members, s.agentId) ? state.members[s.agentId] : undefined;
    const cadence = Object.hasOwn(state.cadence, s.agentId) ? state.cadence[s.agentId] : undefined;
    const turn = s.turn?.open && !s.ended ? s.turn : null;
    out.push({
      podId,
      podName,
      sessionId: s.sessionId,
      agentId: s.agentId,
      agentName: member?.displayName ?? s.agentId,
      kind: kindOf(s.via),
      model: s.model,
      parentSessionId: s.parentSessionId ?? null,
      state: c.state,
      since: c.since,
      lastEventAt: s.last.at,
      turn: turn && { since: turn.since, tool: turn.tool?.name ?? null, toolSince: turn.tool?.at ?? null },
      lastCheckpointAt: cadence?.lastCheckpointAt ?? null,
      agentCostTodayUsd: agentCostToday(state, s.agentId, now),
      items: waiting,
      canSteer,
      ended: s.ended !== null,
      steers: s.steers ?? [],
      connectedBy: personIn(state, by.get(`${podId}|${s.agentId}`)),
      idleHeldUntil: heldUntil(s, now),
    });
  }
  return out;
}

/** Until when the session's Stop waits for a person's Resume: its turn ended and the hold has not run out. */
function heldUntil(s: AgentSession, now: number): string | null {
  const hold = s.idleHold;
  if (!hold || s.ended || s.turn?.open || Date.parse(hold.until) <= now) return null;
  return hold.until;
}

const rank = (s: NowSession) => NOW_STATES.indexOf(s.state);
/** Groups in NOW_STATES' order; in a group the longest in its state first (ended: the latest first). */
const order = (a: NowSession, b: NowSession) =>
  rank(a) - rank(b) ||
  (a.state === "ended-today" ? b.since.localeCompare(a.since) : a.since.localeCompare(b.since));

export async function readNow(
  store: TapeStore,
  identity: Identity,
  podId?: string,
  now = Date.now(),
): Promise<NowResponse> {
  const only = podId === undefined ? undefined : new Set([podId]);
  const visible = (await visiblePods(store, identity, only)).filter(({ pod }) => !pod.archivedAt);
  const byPod = new Map<string, InboxEntry[]>();
  for (const i of await inboxOf(store, identity, visible)) {
    const list = byPod.get(i.podId);
    if (list) list.push(i);
    else byPod.set(i.podId, [i]);
  }
  const connectors = await connectorsOf(
    store,
    visible.map(({ pod }) => pod.id),
  );
  let truncated = false;
  const pods: NowResponse["pods"] = [];
  const sessions: NowSession[] = [];
  for (const { pod, state, access } of visible) {
    pods.push({
      id: pod.id,
      name: pod.name,
      canConnect: identity.kind === "user" && atLeast(access, "admin"),
    });
    // Steering is a person's word in the pod: one of its approvers (the write path's rule), not a site admin as such.
    const canSteer = identity.kind === "user" && isApprover(state, identity.email);
    const here = { podId: pod.id, podName: pod.name, canSteer };
    const found = podSessions(state, here, byPod.get(pod.id) ?? [], now, connectors).sort(order);
    if (found.length > MAX_NOW_PER_POD) truncated = true;
    sessions.push(...found.slice(0, MAX_NOW_PER_POD));
  }
  sessions.sort(order);
  if (sessions.length > MAX_NOW_SESSIONS) truncated = true;
  return {
    now: new Date(now).toISOString(),
    dayStart: new Date(startOfUtcDay(now)).toISOString(),
    staleAfterMinutes: STALE_AFTER_MS / 60_000,
    pods,
    sessions: sessions.slice(0, MAX_NOW_SESSIONS),
    truncated,
  };
}
