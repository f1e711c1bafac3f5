// The building blocks every event schema shares: the envelope, `ev` (an event of one type
// whose body is bounded), deadlines. Split from event-schemas.ts so each family of events
// (the protocol's own, agents' sessions and tools) can live in its own file.
import { z } from "zod";
import { findBoundsViolation } from "./event-bounds";
import { ZId } from "./seed-formats";
import { DEADLINE_THEN, ROLES, type EventType } from "../vocabulary";

export const ZRole = z.enum(ROLES);

export const ZText = z.string().min(1).max(20000);
export const ZLine = z.string().min(1).max(2000);

/** Envelope shared by all events: docs/protocol/tape.md#the-envelope. */
export const envelope = {
  id: z.uuid().optional(),
  actor: ZId,
  role: ZRole.optional(),
  ts: z.iso.datetime({ offset: true }).optional(),
  taskId: ZId.optional(),
  runId: ZId.optional(),
  workItemId: ZId.optional(),
  mood: z.string().min(1).max(50).optional(),
  refs: z.array(ZId).max(200).optional(),
  /** The agent session (Claude Code's session_id, an OpenTelemetry conversation) the event belongs to. */
  sessionId: ZId.optional(),
};

export const ev = <T extends EventType, B extends z.ZodType>(type: T, body: B) =>
  z.object({ ...envelope, type: z.literal(type), body }).superRefine((event, ctx) => {
    // On every event type, whatever its body schema lets through (notes' BODY, metadata, loose objects).
    const v = findBoundsViolation((event as { body: unknown }).body);
    if (v)
      ctx.addIssue({
        code: "custom",
        message: v.message,
        path: ["body", ...v.path],
        params: { limit: v.limit },
      });
  });
export const none = z.object({}).default({});

// --- deadlines: what happens when nobody answers in time ---
/** The longest deadline, in minutes: 30 days. */
export const DEADLINE_MAX_MINUTES = 43200;
/**
 * `at` (an ISO time) or `inMinutes` (from when the server received the event), exactly one;
 * `then`: a reminder only, a rejection, or a default `answer` (required then, and only then).
 * `answers`: what `answer` may be for this subject (a task's or a job's verdicts).
 */
export const deadline = (answers?: readonly [string, ...string[]]) =>
  z
    .object({
      at: z.iso.datetime({ offset: true }).optional(),
      inMinutes: z.number().int().min(1).max(DEADLINE_MAX_MINUTES).optional(),
      then: z.enum(DEADLINE_THEN),
      answer: (answers ? z.enum(answers) : ZText).optional(),
    })
    .superRefine((d, ctx) => {
      if ((d.at === undefined) === (d.inMinutes === undefined))
        ctx.addIssue({
          code: "custom",
          message: "give exactly one of at (an ISO time) or inMinutes",
          path: ["at"],
        });
      if (d.then === "answer" && d.answer === undefined)
        ctx.addIssue({
          code: "custom",
          message: `then: "answer" needs the answer to give${answers ? ` (${answers.join(" or ")})` : ""}`,
          path: ["answer"],
        });
      if (d.then !== "answer" && d.answer !== undefined)
        ctx.addIssue({ code: "custom", message: `answer is only for then: "answer"`, path: ["answer"] });
    });
export type Deadline = z.output<ReturnType<typeof deadline>>;
