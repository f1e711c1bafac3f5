import { z } from "zod";
import { ACCESS_LEVELS } from "../domain/vocabulary";

export const MAX_WAIT_SECONDS = 60;

export const POD_MODES = ["collaboration", "contracting"] as const;

/**
 * POST /api/v1/pods. With `successCriteria`, the scope is agreed on the tape at once
 * (`pod.scope_agreed`, with `cadenceMinutes` for checkpoints); a person who creates a
 * pod joins it as its admin. All of it lands, or none of it.
 */
export const ZCreatePodRequest = z
  .object({
    name: z.string().trim().min(1, "give the pod a name").max(120, "keep the name under 120 characters"),
    mode: z.enum(POD_MODES, { error: "mode is collaboration or contracting" }),
    scope: z.string().trim().max(10000, "keep the scope under 10,000 characters").optional(),
    successCriteria: z
      .array(z.string().trim().min(1, "a success criterion may not be blank").max(2000))
      .max(100, "at most 100 success criteria")
      .optional(),
    cadenceMinutes: z
      .number()
      .int("whole minutes")
      .min(5, "checkpoints at most every 5 minutes")
      .max(240, "checkpoints at least every 240 minutes")
      .optional(),
  })
  .superRefine((r, ctx) => {
    if (r.successCriteria?.length && !r.scope)
      ctx.addIssue({ code: "custom", path: ["scope"], message: "success criteria need a scope" });
    if (r.successCriteria && r.successCriteria.length === 0)
      ctx.addIssue({
        code: "custom",
        path: ["successCriteria"],
        message: "name at least one success criterion (or leave the scope for later)",
      });
    if (r.cadenceMinutes !== undefined && !r.successCriteria?.length)
      ctx.addIssue({
        code: "custom",
        path: ["cadenceMinutes"],
        message: "the cadence is agreed with the scope and its success criteria",
      });
  });
export type TCreatePodRequest = z.infer<typeof ZCreatePodRequest>;

export const ZPodSummary = z.object({
  id: z.string(),
  name: z.string(),
  mode: z.enum(POD_MODES),
  scope: z.string().nullable(),
  createdAt: z.string(),
  eventCount: z.number().int(),
  headHash: z.string(),
  /** When the pod was archived (hidden from the default list; a site view preference, not on the tape). */
  archivedAt: z.string().nullable(),
});
export type PodSummary = z.infer<typeof ZPodSummary>;

/** The cadence watchdog: checkpoints on cadence (percent of those counted) and agents stale now. */
export const ZCadenceAdherence = z.object({
  onTime: z.number().int(),
  late: z.number().int(),
  staleEpisodes: z.number().int(),
  staleNow: z.array(z.string()),
  percent: z.number().nullable(),
});

/** What the overview shows of a pod, from its projections. */
export const ZPodOverview = ZPodSummary.extend({
  status: z.enum(["forming", "active", "paused", "closed"]),
  activeAgent: z.string().nullable(),
  inboxCount: z.number().int(),
  lastCheckpointAt: z.string().nullable(),
  /** Minutes between checkpoints the pod agreed (30 when it did not say). */
  cadenceMinutes: z.number().int(),
  cadence: ZCadenceAdherence,
  /** What the caller may do with the pod (pod admins archive it). */
  access: z.enum(ACCESS_LEVELS),
});
export type PodOverview = z.infer<typeof ZPodOverview>;
/** GET /api/v1/pods: the pods the caller may see. */
export const ZPodsResponse = z.object({ pods: z.array(ZPodOverview) });
export type PodsResponse = z.infer<typeof ZPodsResponse>;
/** GET /api/v1/pods?archived=1 lists the archived pods instead. */
export const ZListPodsQuery = z.object({ archived: z.enum(["0", "1"]).default("0") });
/** GET /api/v1/inbox: `podId` answers that pod's part only (a view following one pod's inbox). */
export const ZInboxQuery = z.object({ podId: z.string().min(1).max(100).optional() });

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
