import { z } from "zod";

export const MAX_WAIT_SECONDS = 60;

export const POD_MODES = ["collaboration", "contracting"] as const;

export const ZCreatePodRequest = z.object({
  name: z.string().trim().min(1).max(120),
  mode: z.enum(POD_MODES),
  scope: z.string().max(10000).optional(),
});
export type TCreatePodRequest = z.infer<typeof ZCreatePodRequest>;

export type PodSummary = {
  id: string;
  name: string;
  mode: (typeof POD_MODES)[number];
  scope: string | null;
  createdAt: string;
  eventCount: number;
  headHash: string;
};

/** What the overview shows of a pod, from its projections. */
export type PodOverview = PodSummary & {
  status: "forming" | "active" | "paused" | "closed";
  activeAgent: string | null;
  inboxCount: number;
  lastCheckpointAt: string | null;
};
/** GET /api/v1/pods: the pods the caller may see. */
export type PodsResponse = { pods: PodOverview[] };

/** GET /api/v1/pods/{podId}/state: now, or as of an earlier seq (time travel). */
export const ZPodStateQuery = z.object({ atSeq: z.coerce.number().int().min(0).optional() });

export const ZReadEventsQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** Long-poll: with nothing after `after`, hold the request up to this many seconds for new events. */
  wait: z.coerce.number().min(0).max(MAX_WAIT_SECONDS).default(0),
  /** With any filter (or `before`), the read is a search: newest first, seq < before. */
  before: z.coerce.number().int().min(1).optional(),
  type: z.string().max(500).optional(),
  actor: z.string().max(200).optional(),
  role: z.string().max(50).optional(),
  taskId: z.string().max(200).optional(),
  runId: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
});
