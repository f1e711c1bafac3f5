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
  /** Members (people and agents), and of them agents: each agent keeps sessions, approvals and signals of its own. */
  members: 1_000,
  agents: 50,
  /** One agent's "allow for this session" answers, over all its sessions, in characters of JSON. */
  sessionAllowChars: 64 * 1024,
  /** Counts of what a pod keeps for good; their size together is retainedChars. */
  escalations: 10_000,
  evidence: 20_000,
  runs: 20_000,
  jobs: 5_000,
  workcells: 10_000,
  /** Open plan blocks (plan id × guardian role). */
  planBlocks: 200,
  /**
   * What the pod keeps for good, in characters of JSON: its tasks, evidence bundles, escalations,
   * runs, jobs and workcells together (state.retained, counted entry by entry as events change
   * them). A 3,000-task plan with ordinary descriptions and metadata takes ~1.5 M.
   */
  retainedChars: 48 * 1024 * 1024,
  /** Histories that keep only their newest entries (the tape keeps them all). */
  roleHistory: 1_000,
  handoffs: 200,
  decisions: 200,
  /** Note seqs kept per run. */
  runNotes: 200,
  /** Links kept per evidence bundle and kind (tasks, decisions, escalations, reviews, jobs). */
  evidenceLinks: 10,
} as const;

/** An id as JSON in a list: up to 200 characters, quotes and a comma. */
const ID_CHARS = 203;
/** Free text the state keeps (a handoff's reason, a rationale, a tool call's input): at most 20,000 characters. */
const TEXT_CHARS = 20_000;
/**
 * One agent's own records at their caps: 16 open tool approvals, each with its inbox item (input
 * and 12 lines of context), its session allows (sessionAllowChars), a 100-rule policy, 20
 * sessions, 50 models of usage and its signals (50 runs, 100 tools; see reduce-tool-gates.ts,
 * reduce-sessions.ts, signals/step-usage-signals.ts).
 */
const AGENT_CHARS =
  16 * 2 * (TEXT_CHARS + 12 * 2_000 + 1_000) +
  100 * 1_300 +
  20 * 1_500 +
  50 * 250 +
  50 * 300 +
  100 * 250 +
  10_000;
/** A person's own: the member entry. */
const PERSON_CHARS = 1_000;

/**
 * What the whole state may reach, in characters of JSON, with everything at its bound: what it
 * keeps for good (measured), once more for the open inbox items that repeat their text (a task's
 * description, an escalation's question, a job's scope), the plan blocks with their inbox items,
 * the histories at their newest entries, the answered tool approvals kept and each member's own
 * records. Text is counted as written: JSON escapes a control character as up to 6 characters, so
 * a state whose free text is all control characters can be larger in its histories and agents'
 * records (what it keeps for good is measured as JSON, escapes included). Real pods are far below
 * it; what matters is that it is finite and well under the longest string JavaScript holds
 * (~512 M characters, where an unbounded pod's appends once failed), so the state can be written.
 */
export function podStateBound(b: PodBounds = POD_BOUNDS): number {
  const decision = TEXT_CHARS + 200 * ID_CHARS + 1_000; // a rationale and up to 200 evidence ids
  const histories =
    b.roleHistory * 300 + b.handoffs * (TEXT_CHARS + 2 * ID_CHARS + 100) + b.decisions * decision;
  const answeredApprovals = 100 * (TEXT_CHARS + 12 * 2_000 + 1_000);
  const shared = 2 * b.retainedChars + 2 * b.planBlocks * (TEXT_CHARS + 500) + histories + answeredApprovals;
  return shared + b.agents * (AGENT_CHARS + b.sessionAllowChars) + b.members * PERSON_CHARS;
}

export type PodBounds = { -readonly [K in keyof typeof POD_BOUNDS]: number };

/** 422 naming the bound: the event is refused and nothing of its request is written. */
export const boundExceeded = (bound: keyof PodBounds, message: string) =>
  new AppError(422, "bound_exceeded", `${message} (bound: ${bound})`);
