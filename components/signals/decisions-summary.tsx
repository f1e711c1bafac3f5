"use client";
// The decisions in the Signals tab's period: how many, by whom (the chair, an approver or a
// deadline's default) and the latest with their rationale, each linked to its place on the tape;
// "Show them all on the tape" opens the tape filtered to decisions (the tape's filter is a store
// kept across tabs: tape-filter-store.ts).
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { DecisionsView } from "@/server/wire/signals";
import { NO_FILTER, useTapeFilter } from "../tape/tape-filter-store";
import { Section } from "../shared/ui";
import { ExplainButton } from "./explain-button";
import { plural } from "./format-signals";
import { EXPLANATIONS } from "./signal-explanations";

const who = (d: { by: string; displayName: string | null }) =>
  d.by === "system" ? "deadline's default" : (d.displayName ?? d.by);
const linkStyle =
  "underline hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-sky-600 dark:hover:text-zinc-100";

export function DecisionsSummary({ podId, decisions }: { podId: string; decisions: DecisionsView }) {
  const router = useRouter();
  const setFilter = useTapeFilter((s) => s.set);
  const pod = `/pods/${encodeURIComponent(podId)}`;
  const showAll = () => {
    setFilter({ ...NO_FILTER, type: "decision" });
    router.push(`${pod}?tab=tape`);
  };
  return (
    <Section title="Decisions" aside={<ExplainButton label="Decisions" explain={EXPLANATIONS.decisions} />}>
      <div data-testid="signals-decisions" className="space-y-2 text-sm text-zinc-700 dark:text-zinc-300">
        {decisions.count === 0 ? (
          <p className="text-zinc-600 dark:text-zinc-400">No decisions in this period.</p>
        ) : (
          <p data-testid="decisions-count">
            {plural(decisions.count, "decision")}
            {decisions.complete ? "" : " among the pod's newest 200 (older ones are on the tape)"}:{" "}
            {decisions.deciders.map((d, i) => (
              <span key={d.by} data-testid="decider">
                {i > 0 && ", "}
                <span className="font-medium text-zinc-900 dark:text-zinc-100">{who(d)}</span>
                {d.roles.length > 0 && ` (${d.roles.join(", ")})`} {d.count}
              </span>
            ))}
          </p>
        )}
        {decisions.latest.length > 0 && (
          <ol aria-label="Latest decisions" className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {decisions.latest.map((d) => (
              <li key={d.seq} data-testid="decision" className="py-1.5">
                <p className="flex flex-wrap items-baseline gap-x-2">
                  <span className="font-medium text-zinc-900 dark:text-zinc-100">
                    {d.verdict} {d.subject.kind} {d.subject.id}
                  </span>
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">
                    by {who(d)}
                    {d.tieBreaker ? ` · tie-breaker ${d.tieBreaker}` : ""} ·{" "}
                    <time dateTime={d.at}>{new Date(d.at).toLocaleString()}</time> ·{" "}
                    <Link href={`${pod}?tab=tape&seq=${d.seq}`} className={linkStyle}>
                      #{d.seq} on the tape
                    </Link>
                  </span>
                </p>
                <p className="line-clamp-2 break-words text-xs text-zinc-600 dark:text-zinc-400">
                  {d.rationale}
                </p>
              </li>
            ))}
          </ol>
        )}
        {decisions.count > 0 && (
          <button type="button" onClick={showAll} className={`text-xs ${linkStyle}`}>
            Show every decision on the tape
          </button>
        )}
      </div>
    </Section>
  );
}
