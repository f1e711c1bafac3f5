import { randomUUID } from "node:crypto";
import { GENESIS_HASH } from "../domain/hash-chain";
import type { TapeStore } from "../db/tape-store";
import type { TapeBus } from "../tape/bus";
import type { TCreatePodRequest, PodSummary } from "../wire/pods";
import { toPodSummary } from "./pod-summary";

export async function createPod(store: TapeStore, bus: TapeBus, req: TCreatePodRequest): Promise<PodSummary> {
  const pod = await store.prisma.pod.create({
    data: {
      id: randomUUID(),
      name: req.name,
      mode: req.mode,
      scope: req.scope ?? null,
      createdAt: new Date().toISOString(),
      headHash: GENESIS_HASH,
    },
  });
  bus.emit("pod-created", { podId: pod.id });
  return toPodSummary(pod);
}
