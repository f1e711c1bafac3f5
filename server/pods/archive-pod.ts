// Archiving hides a pod from the default pod list. It is the site's view of
// its pods, not something that happened in the pod, so it is not on the tape.
import type { TapeStore } from "../db/tape-store";
import { notFound } from "../domain/errors";
import type { PodSummary } from "../wire/pods";
import { toPodSummary } from "./pod-summary";

export async function setPodArchived(
  store: TapeStore,
  podId: string,
  archived: boolean,
): Promise<PodSummary> {
  const pod = await store.prisma.pod.findUnique({ where: { id: podId } });
  if (!pod) throw notFound("pod");
  if (!!pod.archivedAt === archived) return toPodSummary(pod);
  return toPodSummary(
    await store.prisma.pod.update({
      where: { id: podId },
      data: { archivedAt: archived ? new Date().toISOString() : null },
    }),
  );
}
