import { notFound } from "../domain/errors";
import type { TapeStore } from "../db/tape-store";
import type { PodSummary } from "../wire/pods";
import { toPodSummary } from "./pod-summary";

export async function listPods(store: TapeStore): Promise<PodSummary[]> {
  const pods = await store.prisma.pod.findMany({ orderBy: { createdAt: "desc" } });
  return pods.map(toPodSummary);
}

export async function getPod(store: TapeStore, podId: string): Promise<PodSummary> {
  const pod = await store.prisma.pod.findUnique({ where: { id: podId } });
  if (!pod) throw notFound("pod");
  return toPodSummary(pod);
}
