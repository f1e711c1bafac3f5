// Creating a pod: the row, then (in one append) its creator joining as admin and
// the agreed scope. If the append is refused, the row goes too: nothing half-made.
import { randomUUID } from "node:crypto";
import { GENESIS_HASH } from "../domain/hash-chain";
import type { AppendIdentity } from "../domain/access/admit-append";
import type { TapeStore } from "../db/tape-store";
import type { TapeBus } from "../tape/bus";
import type { AppendEvents } from "../tape/append-events";
import type { TEvent } from "../wire/events";
import type { TCreatePodRequest, PodSummary } from "../wire/pods";
import { toPodSummary } from "./pod-summary";

/**
 * Who creates it: a person joins as the pod's admin; automation (the admin token) only names itself
 * on the tape. `as`: who appends the first events (the write path checks them like any other).
 */
export type PodCreator = {
  actor: string;
  person?: { memberId: string; displayName: string };
  as: AppendIdentity;
};

export async function createPod(
  store: TapeStore,
  bus: TapeBus,
  append: AppendEvents,
  req: TCreatePodRequest,
  creator: PodCreator,
): Promise<PodSummary> {
  const id = randomUUID();
  await store.prisma.pod.create({
    data: {
      id,
      name: req.name,
      mode: req.mode,
      scope: req.scope || null,
      createdAt: new Date().toISOString(),
      headHash: GENESIS_HASH,
    },
  });
  const events: TEvent[] = [];
  if (creator.person) {
    events.push({
      type: "member.joined",
      actor: creator.actor,
      body: {
        memberId: creator.person.memberId,
        kind: "human",
        displayName: creator.person.displayName,
        access: "admin",
      },
    });
  }
  if (req.scope && req.successCriteria?.length) {
    const body = {
      scope: req.scope,
      successCriteria: req.successCriteria,
      ...(req.cadenceMinutes ? { cadenceMinutes: req.cadenceMinutes } : {}),
    };
    events.push({ type: "pod.scope_agreed", actor: creator.actor, body });
  }
  if (events.length) {
    try {
      await append(id, events, creator.as);
    } catch (e) {
      // The append is all-or-nothing, so the pod has no events and no state yet: removing the row undoes it all.
      await store.prisma.podState.deleteMany({ where: { podId: id } });
      await store.prisma.pod.delete({ where: { id } });
      throw e;
    }
  }
  bus.emit("pod-created", { podId: id });
  return toPodSummary(await store.prisma.pod.findUniqueOrThrow({ where: { id } }));
}
