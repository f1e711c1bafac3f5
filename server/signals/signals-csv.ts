// The CSV form of GET /api/v1/signals: one row per (pod, agent), flat columns named after the
// JSON's paths, so a spreadsheet gets the same numbers as the JSON. A rate's parts are columns
// of their own (a share's n and of, a mean's sum and count), so sums across rows stay exact.
// RFC 4180: CRLF line ends, a field quoted when it holds a comma, a quote or a line break.
import type { SignalsExport } from "../wire/signals";
import type { UsageTotals } from "../domain/signals/signal-types";

type Row = SignalsExport["rows"][number];
type Cell = string | number | null;

const usageSum = (r: Row, k: keyof UsageTotals) =>
  Object.values(r.usage.byModel).reduce((n, u) => n + u[k], 0);
const toolSum = (r: Row, k: "calls" | "failed") => Object.values(r.usage.tools).reduce((n, t) => n + t[k], 0);

/** Every column, in order: its header and how it reads a row of the JSON export. */
export const SIGNALS_CSV_COLUMNS: readonly (readonly [string, (r: Row) => Cell])[] = [
  ["podId", (r) => r.podId],
  ["podName", (r) => r.podName],
  ["agentId", (r) => r.agentId],
  ["displayName", (r) => r.displayName],
  ["roles", (r) => r.roles.join(" ")],
  ["implementer.tasksApproved", (r) => r.implementer.tasksApproved],
  ["implementer.tasksRejected", (r) => r.implementer.tasksRejected],
  ["implementer.changesRequested", (r) => r.implementer.changesRequested],
  ["implementer.roundsToApproval.sum", (r) => r.implementer.roundsToApproval.sum],
  ["implementer.roundsToApproval.count", (r) => r.implementer.roundsToApproval.count],
  ["implementer.evidencePassed.n", (r) => r.implementer.evidencePassed.n],
  ["implementer.evidencePassed.of", (r) => r.implementer.evidencePassed.of],
  ["implementer.proofsFailing.n", (r) => r.implementer.proofsFailing.n],
  ["implementer.proofsFailing.of", (r) => r.implementer.proofsFailing.of],
  ["implementer.reversals", (r) => r.implementer.reversals],
  ["reviewer.reviews", (r) => r.reviewer.reviews],
  ["reviewer.verdicts.approve", (r) => r.reviewer.verdicts.approve],
  ["reviewer.verdicts.reject", (r) => r.reviewer.verdicts.reject],
  ["reviewer.verdicts.changes_requested", (r) => r.reviewer.verdicts.changes_requested],
  ["reviewer.overturned", (r) => r.reviewer.overturned],
  ["reviewer.timeToReviewMs.sum", (r) => r.reviewer.timeToReviewMs.sum],
  ["reviewer.timeToReviewMs.count", (r) => r.reviewer.timeToReviewMs.count],
  ["cadence.onTime", (r) => r.cadence.onTime],
  ["cadence.late", (r) => r.cadence.late],
  ["cadence.staleEpisodes", (r) => r.cadence.staleEpisodes],
  ["escalations.raised", (r) => r.escalations.raised],
  ["escalations.answered", (r) => r.escalations.answered],
  ["escalations.expired", (r) => r.escalations.expired],
  ["escalations.timeToAnswerMs.sum", (r) => r.escalations.timeToAnswerMs.sum],
  ["escalations.timeToAnswerMs.count", (r) => r.escalations.timeToAnswerMs.count],
  ["handoffs.given", (r) => r.handoffs.given],
  ["handoffs.received", (r) => r.handoffs.received],
  ["contracting.delivered", (r) => r.contracting.delivered],
  ["contracting.accepted", (r) => r.contracting.accepted],
  ["contracting.rejected", (r) => r.contracting.rejected],
  ["contracting.released", (r) => r.contracting.released],
  ["contracting.refunded", (r) => r.contracting.refunded],
  ["contracting.disputes", (r) => r.contracting.disputes],
  ["usage.sessions", (r) => r.usage.sessions],
  ["usage.inputTokens", (r) => usageSum(r, "inputTokens")],
  ["usage.outputTokens", (r) => usageSum(r, "outputTokens")],
  ["usage.cacheReadTokens", (r) => usageSum(r, "cacheReadTokens")],
  ["usage.cacheWriteTokens", (r) => usageSum(r, "cacheWriteTokens")],
  ["usage.costUsd", (r) => usageSum(r, "costUsd")],
  ["usage.toolCalls", (r) => toolSum(r, "calls")],
  ["usage.failedToolCalls", (r) => toolSum(r, "failed")],
  ["rates.approvalRate", (r) => r.rates.approvalRate],
  ["rates.meanRoundsToApproval", (r) => r.rates.meanRoundsToApproval],
  ["rates.evidencePassRate", (r) => r.rates.evidencePassRate],
  ["rates.proofFailRate", (r) => r.rates.proofFailRate],
  ["rates.reversalRate", (r) => r.rates.reversalRate],
  ["rates.rigorRate", (r) => r.rates.rigorRate],
  ["rates.overturnRate", (r) => r.rates.overturnRate],
  ["rates.meanTimeToReviewMs", (r) => r.rates.meanTimeToReviewMs],
  ["rates.cadenceAdherence", (r) => r.rates.cadenceAdherence],
  ["rates.escalationAnswerRate", (r) => r.rates.escalationAnswerRate],
  ["rates.meanTimeToAnswerMs", (r) => r.rates.meanTimeToAnswerMs],
  ["rates.jobAcceptanceRate", (r) => r.rates.jobAcceptanceRate],
  ["rates.totalTokens", (r) => r.rates.totalTokens],
  ["rates.costUsd", (r) => r.rates.costUsd],
  ["rates.toolCalls", (r) => r.rates.toolCalls],
];

/**
 * A field as RFC 4180 wants it; null is an empty field. A text that a spreadsheet would run as a
 * formula (it starts with =, +, -, @, a tab or a carriage return: a pod named "=HYPERLINK(…)")
 * gets a leading apostrophe (OWASP's advice); numbers are written as numbers.
 */
function field(value: Cell): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function signalsCsv(rows: Row[]): string {
  const lines = [SIGNALS_CSV_COLUMNS.map(([name]) => name).join(",")];
  for (const r of rows) lines.push(SIGNALS_CSV_COLUMNS.map(([, read]) => field(read(r))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
