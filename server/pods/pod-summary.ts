import type { PodSummary } from "../wire/pods";

type PodRow = {
  id: string;
  name: string;
  mode: string;
  scope: string | null;
  createdAt: string;
  headSeq: number;
  headHash: string;
  archivedAt: string | null;
};

export function toPodSummary(p: PodRow): PodSummary {
  return {
    id: p.id,
    name: p.name,
    mode: p.mode as PodSummary["mode"],
    scope: p.scope,
    createdAt: p.createdAt,
    eventCount: p.headSeq,
    headHash: p.headHash,
    archivedAt: p.archivedAt,
  };
}
