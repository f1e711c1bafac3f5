// Which due deliveries take this node's free slots (claim-deliveries.ts): pods in turn, each
// endpoint capped, and a reserve of slots that only a pod with nothing under way may take. So
// receivers that hang hold only their own pod's share, and a pod with nothing under way finds a free
// slot: with the figures below, 6 pods at their cap and 32 more with one attempt hanging each before
// any pod waits for a slot, and then only until one attempt's deadline.
// Pure: the claim reads the candidates, this picks.

/** Attempts under way at once on one node. Each is a socket and a payload: cheap while it waits. */
export const WEBHOOK_SLOTS = 128;
/** The most attempts of one pod under way. */
export const PER_POD = 16;
/** The most attempts of one endpoint under way. */
export const PER_ENDPOINT = 4;
/** The last quarter of the slots (32 of 128): only for a pod with nothing under way, one each. */
export const reservedSlots = (slots: number) => Math.floor(slots / 4);

/** A due delivery, ranked by the claim: `podTurn` is its place in its pod's line (1 = the pod's first). */
export type Candidate = { id: string; endpointId: string; podId: string; podTurn: number };
export type Busy = { endpointId: string; podId: string };

/**
 * Up to `free` of `candidates`, each pod's first turn before any pod's second (then oldest first, the
 * order the claim gives within a turn), within the caps, counting the attempts already under way.
 */
export function fairShare(
  candidates: readonly Candidate[],
  underWay: readonly Busy[],
  free: number,
): Candidate[] {
  const pods = count(underWay.map((b) => b.podId));
  const endpoints = count(underWay.map((b) => b.endpointId));
  const reserve = reservedSlots(free + underWay.length);
  const picked: Candidate[] = [];
  const inTurn = [...candidates].sort((a, b) => a.podTurn - b.podTurn);
  for (const c of inTurn) {
    if (picked.length >= free) break;
    const p = pods.get(c.podId) ?? 0;
    const e = endpoints.get(c.endpointId) ?? 0;
    if (p >= PER_POD || e >= PER_ENDPOINT) continue;
    // A pod already under way takes another slot only while more than the reserve stays free.
    if (p > 0 && free - picked.length <= reserve) continue;
    pods.set(c.podId, p + 1);
    endpoints.set(c.endpointId, e + 1);
    picked.push(c);
  }
  return picked;
}

const count = (keys: string[]) =>
  keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());
