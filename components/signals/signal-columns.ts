// The per-agent table's columns, grouped by what they tell of an agent: each with the number it sorts
// by, the text it shows, a title with the counts behind a rate (so 67% says "2 of 3") and its
// explanation (signal-explanations.ts). The pod's Signals tab and the Agents page both show these.
import type { AgentSignalsView } from "@/server/wire/signals";
import { NONE, compact, count, duration, percent, usd } from "./format-signals";
import { EXPLANATIONS, type Explanation } from "./signal-explanations";

type ColumnGroup = "Agent" | "Implementer" | "Reviewer" | "Cadence" | "Escalations" | "Contracting" | "Usage";
export type Column = {
  id: keyof typeof EXPLANATIONS;
  group: ColumnGroup;
  label: string;
  /** What the column sorts by; null sorts last whichever way. */
  value: (a: AgentSignalsView) => number | string | null;
  text: (a: AgentSignalsView) => string;
  title?: (a: AgentSignalsView) => string;
};
export type ExplainedColumn = Column & { explain: Explanation };

export const agentName = (a: AgentSignalsView) => a.displayName ?? a.agentId;
const decided = (a: AgentSignalsView) => a.implementer.tasksApproved + a.implementer.tasksRejected;

const COLUMNS: Column[] = [
  {
    id: "agent",
    group: "Agent",
    label: "Agent",
    value: (a) => agentName(a).toLowerCase(),
    text: agentName,
    title: (a) => `${a.agentId}${a.roles.length ? ` (${a.roles.join(", ")})` : ""}`,
  },
  {
    id: "approval",
    group: "Implementer",
    label: "Approved",
    value: (a) => a.rates.approvalRate,
    text: (a) => percent(a.rates.approvalRate),
    title: (a) =>
      `${count(a.implementer.tasksApproved)} approved of ${count(decided(a))} decided; ${count(a.implementer.tasksRejected)} rejected, ${count(a.implementer.changesRequested)} changes requested, ${count(a.implementer.reversals)} reversals`,
  },
  {
    id: "rounds",
    group: "Implementer",
    label: "Rounds",
    value: (a) => a.rates.meanRoundsToApproval,
    text: (a) => (a.rates.meanRoundsToApproval === null ? NONE : a.rates.meanRoundsToApproval.toFixed(1)),
    title: (a) =>
      `review rounds until approval, mean of ${count(a.implementer.roundsToApproval.count)} tasks`,
  },
  {
    id: "evidence",
    group: "Implementer",
    label: "Evidence pass",
    value: (a) => a.rates.evidencePassRate,
    text: (a) => percent(a.rates.evidencePassRate),
    title: (a) =>
      `${count(a.implementer.evidencePassed.n)} of ${count(a.implementer.evidencePassed.of)} evidence bundles passed; ${count(a.implementer.proofsFailing.n)} of ${count(a.implementer.proofsFailing.of)} proofs with a failing gate`,
  },
  {
    id: "reversals",
    group: "Implementer",
    label: "Reversals",
    value: (a) => a.implementer.reversals,
    text: (a) => count(a.implementer.reversals),
    title: (a) =>
      `${count(a.implementer.reversals)} of ${count(a.implementer.tasksRejected)} rejected tasks had a reviewer's approval`,
  },
  {
    id: "reviews",
    group: "Reviewer",
    label: "Reviews",
    value: (a) => a.reviewer.reviews,
    text: (a) => count(a.reviewer.reviews),
    title: (a) =>
      `${count(a.reviewer.verdicts.approve)} approve, ${count(a.reviewer.verdicts.changes_requested)} changes requested, ${count(a.reviewer.verdicts.reject)} reject`,
  },
  {
    id: "rigor",
    group: "Reviewer",
    label: "Rigor",
    value: (a) => a.rates.rigorRate,
    text: (a) => percent(a.rates.rigorRate),
    title: (a) =>
      `${count(a.reviewer.verdicts.reject + a.reviewer.verdicts.changes_requested)} of ${count(a.reviewer.reviews)} reviews found something`,
  },
  {
    id: "overturned",
    group: "Reviewer",
    label: "Overturned",
    value: (a) => a.rates.overturnRate,
    text: (a) => percent(a.rates.overturnRate),
    title: (a) => `${count(a.reviewer.overturned)} of ${count(a.reviewer.reviews)} reviews overturned`,
  },
  {
    id: "review-time",
    group: "Reviewer",
    label: "Time to review",
    value: (a) => a.rates.meanTimeToReviewMs,
    text: (a) => duration(a.rates.meanTimeToReviewMs),
    title: (a) => `mean of ${count(a.reviewer.timeToReviewMs.count)} reviews`,
  },
  {
    id: "cadence",
    group: "Cadence",
    label: "On cadence",
    value: (a) => a.rates.cadenceAdherence,
    text: (a) => percent(a.rates.cadenceAdherence),
    title: (a) =>
      `${count(a.cadence.onTime)} of ${count(a.cadence.onTime + a.cadence.late)} checkpoints on cadence, ${count(a.cadence.late)} late`,
  },
  {
    id: "stale",
    group: "Cadence",
    label: "Stale",
    value: (a) => a.cadence.staleEpisodes,
    text: (a) => count(a.cadence.staleEpisodes),
    title: () => "staleness episodes: no checkpoint within the pod's cadence",
  },
  {
    id: "escalations",
    group: "Escalations",
    label: "Raised",
    value: (a) => a.escalations.raised,
    text: (a) => count(a.escalations.raised),
    title: (a) =>
      `${count(a.escalations.answered)} answered, ${count(a.escalations.expired)} expired; handoffs ${count(a.handoffs.given)} given, ${count(a.handoffs.received)} received`,
  },
  {
    id: "answered",
    group: "Escalations",
    label: "Answered",
    value: (a) => a.rates.escalationAnswerRate,
    text: (a) => percent(a.rates.escalationAnswerRate),
    title: (a) =>
      `${count(a.escalations.answered)} of ${count(a.escalations.answered + a.escalations.expired)} ended escalations answered by a person; mean time to answer ${duration(a.rates.meanTimeToAnswerMs)}`,
  },
  {
    id: "jobs",
    group: "Contracting",
    label: "Jobs accepted",
    value: (a) => a.rates.jobAcceptanceRate,
    text: (a) => percent(a.rates.jobAcceptanceRate),
    title: (a) =>
      `${count(a.contracting.accepted)} accepted, ${count(a.contracting.rejected)} rejected of ${count(a.contracting.delivered)} delivered; escrow ${count(a.contracting.released)} released, ${count(a.contracting.refunded)} refunded; ${count(a.contracting.disputes)} disputes`,
  },
  {
    id: "tokens",
    group: "Usage",
    label: "Tokens",
    value: (a) => a.rates.totalTokens,
    text: (a) => compact(a.rates.totalTokens),
    title: (a) => `${count(a.rates.totalTokens)} tokens in ${count(a.usage.sessions)} sessions`,
  },
  {
    id: "cost",
    group: "Usage",
    label: "Cost",
    value: (a) => a.rates.costUsd,
    text: (a) => usd(a.rates.costUsd),
    title: (a) =>
      Object.entries(a.usage.byModel)
        .map(([m, u]) => `${m}: ${usd(u.costUsd)}`)
        .join("; ") || "no usage reported",
  },
  {
    id: "tools",
    group: "Usage",
    label: "Tool calls",
    value: (a) => a.rates.toolCalls,
    text: (a) => count(a.rates.toolCalls),
    title: (a) =>
      Object.entries(a.usage.tools)
        .map(([t, c]) => `${t}: ${count(c.calls)}${c.failed ? ` (${count(c.failed)} failed)` : ""}`)
        .join("; ") || "no tool calls",
  },
];

export const SIGNAL_COLUMNS: ExplainedColumn[] = COLUMNS.map((c) => ({ ...c, explain: EXPLANATIONS[c.id] }));

type SortDir = "ascending" | "descending";
export type SortState = { column: string; dir: SortDir };

/** Agents ordered by a column; agents without a value stay last both ways, ties keep the agent's name order. */
export function sortAgents(agents: AgentSignalsView[], { column, dir }: SortState): AgentSignalsView[] {
  const col = SIGNAL_COLUMNS.find((c) => c.id === column) ?? SIGNAL_COLUMNS[0]!;
  const sign = dir === "ascending" ? 1 : -1;
  return [...agents].sort((a, b) => {
    const x = col.value(a),
      y = col.value(b);
    if (x === null || y === null) return x === y ? byName(a, b) : x === null ? 1 : -1;
    const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return c !== 0 ? sign * c : byName(a, b);
  });
}
const byName = (a: AgentSignalsView, b: AgentSignalsView) => agentName(a).localeCompare(agentName(b));

/** A second click on the sorted column turns it round; a new column starts with the most first (names A→Z). */
export const nextSort = (s: SortState, column: string): SortState =>
  s.column === column
    ? { column, dir: s.dir === "ascending" ? "descending" : "ascending" }
    : { column, dir: column === "agent" ? "ascending" : "descending" };
