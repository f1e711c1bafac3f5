"use client";
// The pod's Signals tab: each agent's raw signals in a table, the cost burn-down against the
// budgets, checkpoint cadence and review outcomes over time, for a period (all time, live; or the
// last day, week or month, recomputed by the server). All time refetches as the tape moves (PodView,
// the only place this is mounted, holds the pod's live refresh: usePodState). The period is in the
// URL beside the tab, kept the way PodView keeps ?tab=.
import { useRouter, useSearchParams } from "next/navigation";
import type { PodSignalsView } from "@/server/wire/signals";
import { Empty, Section, Skeleton } from "../shared/ui";
import { AgentSignalsTable } from "./agent-signals-table";
import { BudgetsSummary } from "./budgets-summary";
import { DecisionsSummary } from "./decisions-summary";
import { CheckpointCadence } from "./checkpoint-cadence";
import { CostBurnDown } from "./cost-burn-down";
import { ReviewOutcomes } from "./review-outcomes";
import { hasActivity, hasSignals } from "./chart-data";
import { usePodSignals } from "./use-pod-signals";
import { PeriodSelect } from "./period-select";
import { busyMessage, RecomputeBusyError } from "./fetch-signals";
import { parsePeriod, periodEmpty, periodLabel, searchWithPeriod, type Period } from "./signals-period";

const errorStyle = "text-sm text-red-700 dark:text-red-400";

export function SignalsPanel({ podId }: { podId: string }) {
  const params = useSearchParams();
  const router = useRouter();
  const period = parsePeriod(params.get("period"));
  const choose = (p: Period) =>
    router.replace(`?${searchWithPeriod(params.toString(), p)}`, { scroll: false });
  const signals = usePodSignals(podId, period);
  const busy =
    signals.failureReason instanceof RecomputeBusyError && signals.isFetching ? signals.failureReason : null;
  const recomputing =
    period !== "all" ? `Recomputing the ${periodLabel(period).toLowerCase()} from the whole tape…` : null;
  return (
    <div className="space-y-4" data-testid="signals-panel">
      <PeriodSelect period={period} onChange={choose} updating={signals.isPlaceholderData} />
      {busy && (
        <p role="status" data-testid="signals-busy" className="text-sm text-amber-800 dark:text-amber-300">
          {busyMessage(busy)}
        </p>
      )}
      {signals.data ? (
        <SignalsFigures podId={podId} view={signals.data} period={period} />
      ) : signals.isError ? (
        signals.error instanceof RecomputeBusyError ? (
          <p role="alert" className={errorStyle}>
            Recomputing is still busy.{" "}
            <button
              type="button"
              onClick={() => void signals.refetch()}
              className="underline focus-visible:outline-2 focus-visible:outline-sky-600"
            >
              Try again
            </button>
          </p>
        ) : (
          <p role="alert" className={errorStyle}>
            Could not load the signals: {signals.error.message}
          </p>
        )
      ) : busy ? null : (
        <div className="space-y-2">
          {recomputing && (
            <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
              {recomputing}
            </p>
          )}
          <Skeleton label={recomputing ?? "Loading signals"} className="h-64 rounded-lg" />
        </div>
      )}
    </div>
  );
}

function SignalsFigures({ podId, view, period }: { podId: string; view: PodSignalsView; period: Period }) {
  if (!hasSignals(view)) {
    return (
      <div className="space-y-3">
        <Empty>{periodEmpty(period)}</Empty>
        {view.decisions.count > 0 && <DecisionsSummary podId={podId} decisions={view.decisions} />}
        <BudgetsSummary budgets={view.budgets} />
      </div>
    );
  }
  return (
    <>
      <Section title="Agents">
        <AgentSignalsTable
          agents={view.agents.filter(hasActivity)}
          caption={period === "all" ? undefined : `Signals per agent, ${periodLabel(period).toLowerCase()}`}
        />
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Rates count what the tape shows; the counts behind each figure show under it with &ldquo;Show the
          counts&rdquo; (and on hover), and each column&rsquo;s &ldquo;?&rdquo; says what it means and how it
          is counted. As of #{view.seq}
          {view.window ? "; budgets show what they use now, whatever the period." : "."}
        </p>
      </Section>
      <DecisionsSummary podId={podId} decisions={view.decisions} />
      <BudgetsSummary budgets={view.budgets} />
      <div className="grid gap-3 md:grid-cols-2">
        <CostBurnDown view={view} />
        <ReviewOutcomes view={view} />
        <div className="md:col-span-2">
          <CheckpointCadence view={view} />
        </div>
      </div>
    </>
  );
}
