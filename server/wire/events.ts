// The typed wire for tape events, shared by server and browser (pure zod, no I/O).
import { z } from "zod";

/** TeamNet and work-pod roles (seed 000 §3.1, seed 001). */
export const ROLES = [
  "implementer",
  "reviewer",
  "orchestrator",
  "chair",
  "contract_guardian",
  "cost_controller",
  "librarian",
  "researcher",
  "patchmaker",
  "verifier",
  "spectator",
] as const;
export const ZRole = z.enum(ROLES);

/** Note kinds of the run output policy (seed 002). */
export const NOTE_KINDS = [
  "OBSERVATION",
  "HYPOTHESIS",
  "HYPERTHESIS",
  "CONJECTURE",
  "STATUS",
  "REQUEST_HELP",
  "REQUEST_VERIFY",
] as const;

const ZLine = z.string().min(1).max(2000);

/** Checkpoint: Completed / Next / Blocked (seed 000 §3.2). */
export const ZCheckpointBody = z.object({
  completed: z.array(ZLine).max(100),
  next: z.array(ZLine).max(100),
  blocked: z.array(ZLine).max(100),
});

/** Typed note (seed 002); further fields are kept as sent. */
export const ZNoteBody = z.looseObject({
  kind: z.enum(NOTE_KINDS),
  text: z.string().min(1).max(20000),
});

const envelope = {
  id: z.uuid().optional(),
  actor: z.string().min(1).max(200),
  role: ZRole.optional(),
  ts: z.iso.datetime({ offset: true }).optional(),
};

export const ZEventInput = z.discriminatedUnion("type", [
  z.object({ ...envelope, type: z.literal("checkpoint"), body: ZCheckpointBody }),
  z.object({ ...envelope, type: z.literal("note"), body: ZNoteBody }),
]);
export type TEventInput = z.infer<typeof ZEventInput>;
export const EVENT_TYPES = ["checkpoint", "note"] as const;

export const MAX_EVENTS_PER_REQUEST = 1000;
export const ZAppendRequest = z.union([
  z.object({ events: z.array(ZEventInput).min(1).max(MAX_EVENTS_PER_REQUEST) }),
  ZEventInput,
]);

/** An event as stored on the tape and sent to clients. */
export type TapeEvent = {
  id: string;
  podId: string;
  seq: number;
  type: string;
  actor: string;
  role: string | null;
  ts: string | null;
  receivedAt: string;
  body: unknown;
  prevHash: string;
  hash: string;
};
