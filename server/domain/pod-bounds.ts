// What one pod may accumulate. EVENT_BOUNDS (events/event-bounds.ts) bound one event; these bound
// what a pod keeps from all of them, so its state stays readable, replayable and appendable
// however long it lives: 516 plans of ~1 MB metadata each once grew a state past what a
// JavaScript string holds, and every append after that failed. The README's "Limits" table
// says which collection is capped (refused beyond) and which keeps only its newest entries.
import { AppError } from "./errors";

export const POD_BOUNDS = {
  /** A task's description, in UTF-8 bytes (it is also at most 5,000 characters). */
  taskDescriptionBytes: 8 * 1024,
  /** A task's metadata as canonical JSON, in UTF-8 bytes, after task.updated merges into it. */
  taskMetadataBytes: 8 * 1024,
  /** Tasks in one pod (its whole plan, every plan.imported and task.added together). */
  tasks: 5_000,
  /** Evidence bundles cited by one task (its reviews' and bundles' ids together). */
  taskEvidence: 500,
  /** Workcells opened for one task. */
  taskWorkcells: 100,
  members: 1_000,
  escalations: 10_000,
  evidence: 10_000,
  runs: 10_000,
  jobs: 2_000,
  workcells: 5_000,
  /** Open plan blocks (plan id × guardian role). */
  planBlocks: 200,
  /** Histories that keep only their newest entries (the tape keeps them all). */
  roleHistory: 1_000,
  handoffs: 1_000,
  decisions: 1_000,
  /** Note seqs kept per run. */
  runNotes: 200,
  /** Links kept per evidence bundle and kind (tasks, decisions, escalations, reviews, jobs). */
  evidenceLinks: 20,
  /**
   * The characters of JSON the pod keeps in its capped collections (tasks, evidence, escalations,
   * runs, jobs, workcells, members), counted as each event adds or grows one of their entries.
   */
  retainedChars: 48 * 1024 * 1024,
} as const;

export type PodBounds = { -readonly [K in keyof typeof POD_BOUNDS]: number };

/** 422 naming the bound: the event is refused and nothing of its request is written. */
export const boundExceeded = (bound: keyof PodBounds, message: string) =>
  new AppError(422, "bound_exceeded", `${message} (bound: ${bound})`);
