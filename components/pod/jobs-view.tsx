"use client";
// Contracted jobs: scope, acceptance tests, settlement and where the escrow stands.
import type { PodStateView } from "@/server/wire/views";
import { Badge, Card, Empty } from "../shared/ui";

export function JobsView({ state }: { state: PodStateView }) {
  if (state.jobs.length === 0) return <Empty>No contracted jobs on this pod.</Empty>;
  return (
    <ul className="space-y-2" data-testid="jobs">
      {[...state.jobs].reverse().map((j) => (
        <li key={j.jobId}>
          <Card>
            <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="job" data-job={j.jobId}>
              <span className="font-medium">{j.scope}</span>
              <Badge tone={j.status === "settled" ? "green" : j.status === "rejected" ? "red" : "sky"}>
                {j.status}
              </Badge>
              <Badge
                tone={j.escrow === "released" ? "green" : j.escrow === "refunded" ? "amber" : "zinc"}
                title="escrow"
              >
                escrow:{"\u00a0"}
                <span data-testid="escrow">{j.escrow}</span>
              </Badge>
              <span className="ml-auto text-sm tabular-nums">
                {j.settlement.amount} {j.settlement.currency}
              </span>
            </div>
            <div className="mt-2 grid gap-3 text-xs text-zinc-600 sm:grid-cols-2 dark:text-zinc-400">
              <div>
                <p className="font-semibold uppercase tracking-wide">Acceptance tests</p>
                <ul className="list-disc pl-4">
                  {j.acceptanceTests.map((t) => (
                    <li key={t}>{t}</li>
                  ))}
                </ul>
              </div>
              <div>
                <p className="font-semibold uppercase tracking-wide">Constraints and terms</p>
                <ul className="list-disc pl-4">
                  {[...j.constraints, j.settlement.terms].filter(Boolean).map((t) => (
                    <li key={t}>{t}</li>
                  ))}
                </ul>
              </div>
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
