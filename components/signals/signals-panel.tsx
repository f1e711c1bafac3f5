"use client";
// The pod's Signals tab: each agent's raw signals in a table, the cost burn-down against the
// budgets, checkpoint cadence and review outcomes over time. Live: refetched as the tape moves
// (PodView, the only place this is mounted, holds the pod's live refresh: usePodState).
import { Empty, Section, Skeleton } from "../shared/ui";
import { AgentSignalsTable } from "./agent-signals-table";
import { BudgetsSummary } from "./budgets-summary";
import { CheckpointCadence } from "./checkpoint-cadence";
import { CostBurnDown } from "./cost-burn-down";
import { ReviewOutcomes } from "./review-outcomes";
import { hasActivity, hasSignals } from "./chart-data";
import { usePodSignals } from "./use-pod-signals";
import { NO_SIGNALS } from "./format-signals";

export function SignalsPanel({ podId }: { podId: string }) {
  const signals = usePodSignals(podId);
  if (signals.isPending) return <Skeleton label="Loading signals" className="h-64 rounded-lg" />;
  if (signals.isError) return <p role="alert" className="text-sm text-red-700 dark:text-red-400">Could not load the signals: {signals.error.message}</p>;
  const view = signals.data;
  if (!hasSignals(view)) {
    return (
      <div className="space-y-3" data-testid="signals-panel">
        <Empty>{NO_SIGNALS}</Empty>
        <BudgetsSummary budgets={view.budgets} />
      </div>
    );
  }
  return (
    <div className="space-y-4" data-testid="signals-panel">
      <Section title="Agents">
        <AgentSignalsTable agents={view.agents.filter(hasActivity)} />
        <p className="text-xs text-zinc-600 dark:text-zinc-400">Rates count what the tape shows; the counts behind each figure show under it with &ldquo;Show the counts&rdquo; (and on hover). As of #{view.seq}.</p>
      </Section>
      <BudgetsSummary budgets={view.budgets} />
      <div className="grid gap-3 md:grid-cols-2">
        <CostBurnDown view={view} />
        <ReviewOutcomes view={view} />
        <div className="md:col-span-2">
          <CheckpointCadence view={view} />
        </div>
      </div>
    </div>
  );
}
