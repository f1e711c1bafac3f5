// `--deadline 30m|2h|1d|<ISO time> [--then remind|reject|answer] [--answer TEXT]`: the
// escalation's (or review request's) deadline, as the event body's `deadline`.
import { UsageError } from "../sdk/errors";
import { DEADLINE_THEN, type DeadlineThen } from "../../server/wire/vocabulary";

const UNIT_MINUTES: Record<string, number> = { m: 1, h: 60, d: 1440 };
export type DeadlineBody = { at?: string; inMinutes?: number; then: DeadlineThen; answer?: string };

export function deadlineFrom(
  deadline: string | undefined,
  then: string | undefined,
  answer: string | undefined,
): DeadlineBody | undefined {
  if (deadline === undefined) {
    if (then !== undefined || answer !== undefined)
      throw new UsageError("--then and --answer go with --deadline");
    return undefined;
  }
  const chosen = (then ?? (answer !== undefined ? "answer" : "remind")) as DeadlineThen;
  if (!DEADLINE_THEN.includes(chosen)) throw new UsageError(`--then takes ${DEADLINE_THEN.join(", ")}`);
  if (chosen === "answer" && answer === undefined)
    throw new UsageError('--then answer needs --answer "the default answer"');
  const rel = /^(\d+)([mhd])$/.exec(deadline.trim());
  const when = rel
    ? { inMinutes: Number(rel[1]) * UNIT_MINUTES[rel[2]!]! }
    : Number.isNaN(Date.parse(deadline))
      ? null
      : { at: deadline };
  if (!when)
    throw new UsageError("--deadline takes a duration (30m, 2h, 1d) or an ISO time (2026-11-22T18:00:00Z)");
  return { ...when, then: chosen, ...(answer !== undefined ? { answer } : {}) };
}
