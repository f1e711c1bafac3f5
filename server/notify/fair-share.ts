// Which due notifications to claim: the oldest first, but never more than PUSH_SLOTS_PER_DEVICE under
// way for one device (or mailbox) and PUSH_SLOTS_PER_PERSON for one person. Pure: the claim
// (claim-notifications.ts) reads the candidates and the rows under way, this decides.

/** Requests under way at once to one device (one push service subscription) or one mailbox. */
export const PUSH_SLOTS_PER_DEVICE = 1;
/** Requests under way at once for one person, over all their devices and mail. */
export const PUSH_SLOTS_PER_PERSON = 4;
/** A person's oldest due rows the claim considers: enough to fill their share past a busy device or two. */
export const CANDIDATES_PER_PERSON = 4 * PUSH_SLOTS_PER_PERSON;

export type Slot = { userId: string; channel: string; target: string };

/**
 * The ids to claim, at most `limit`, from `candidates` (each person's oldest due rows), after what
 * is `underWay`. A device's rows go in order: once one waits, so do its later ones.
 */
export function fairShare(
  candidates: readonly (Slot & { id: number })[],
  underWay: readonly Slot[],
  limit: number,
): number[] {
  const device = (s: Slot) => `${s.channel}\n${s.target}`;
  const perDevice = new Map<string, number>();
  const perPerson = new Map<string, number>();
  for (const s of underWay) {
    perDevice.set(device(s), (perDevice.get(device(s)) ?? 0) + 1);
    perPerson.set(s.userId, (perPerson.get(s.userId) ?? 0) + 1);
  }
  const ids: number[] = [];
  for (const c of [...candidates].sort((x, y) => x.id - y.id)) {
    if (ids.length >= limit) break;
    const d = perDevice.get(device(c)) ?? 0;
    const p = perPerson.get(c.userId) ?? 0;
    if (d >= PUSH_SLOTS_PER_DEVICE || p >= PUSH_SLOTS_PER_PERSON) continue;
    perDevice.set(device(c), d + 1);
    perPerson.set(c.userId, p + 1);
    ids.push(c.id);
  }
  return ids;
}
