// The query of the signals routes: which pods and agent, and which figures — now (the stored
// projection), as of a seq, or counting only a time window. What makes no sense is a 400 here,
// before any tape is read.
import { z } from "zod";
import { invalid } from "../domain/errors";

export const MAX_PODS_PER_EXPORT = 50;

/** An ISO date ("2026-11-23", UTC midnight) or date-time with a zone ("2026-11-23T10:00:00Z", "+02:00"). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;
const ZInstant = z
  .string()
  .max(40)
  .regex(ISO_INSTANT, "an ISO date (YYYY-MM-DD) or date-time with its zone (…T10:00:00Z)")
  .refine((v) => Number.isFinite(Date.parse(v)), "not a real date");

export const ZPodSignalsQuery = z.object({
  asOf: z
    .string()
    .regex(/^\d{1,10}$/, "a seq (a whole number ≥ 0)")
    .transform(Number)
    .optional(),
  from: ZInstant.optional(),
  to: ZInstant.optional(),
});

const ZId = z.string().min(1).max(200);
export const ZSignalsExportQuery = z.object({
  pods: z.array(ZId).max(MAX_PODS_PER_EXPORT, `at most ${MAX_PODS_PER_EXPORT} pods per export`).optional(),
  agent: ZId.optional(),
  from: ZInstant.optional(),
  to: ZInstant.optional(),
  format: z.enum(["json", "csv"]).optional(),
});

export const ZRecordQuery = z.object({
  pod: ZId,
  agent: ZId,
  from: ZInstant.optional(),
  to: ZInstant.optional(),
});

/** A time window in ms; `from` defaults to the beginning, `to` to now. */
export type Window = { fromMs: number; toMs: number; from: string; to: string };

export function parseWindow(from: string | undefined, to: string | undefined, nowMs: number): Window | null {
  if (from === undefined && to === undefined) return null;
  const fromMs = from === undefined ? 0 : Date.parse(from);
  const toMs = to === undefined ? nowMs : Date.parse(to);
  if (fromMs >= toMs)
    throw invalid("`from` must be before `to`", [{ path: "from", message: "must be before to" }]);
  if (fromMs > nowMs)
    throw invalid("`from` is in the future: nothing has happened there yet", [
      { path: "from", message: "in the future" },
    ]);
  return { fromMs, toMs, from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() };
}
