// One agent on the Agents page: its key rates, trends (cost and reviews per day) and a row per
// pod it works in, with that pod's figures and a link to the pod's Signals tab.
import Link from "next/link";
import type { AgentEntry } from "./agents-across-pods";
import { agentTrends } from "./agent-trends";
import { agentName } from "./signal-columns";
import { Sparkline } from "./sparkline";
import { COLOR } from "./chart-colors";
import { Card } from "../shared/ui";
import { compact, count, percent, usd } from "./format-signals";

export function AgentCard({ entry }: { entry: AgentEntry }) {
  const { agent: a, rows } = entry;
  const trends = agentTrends(a);
  const figures: [string, string, string][] = [
    [
      "Approved",
      percent(a.rates.approvalRate),
      `${count(a.implementer.tasksApproved)} of ${count(a.implementer.tasksApproved + a.implementer.tasksRejected)} decided tasks`,
    ],
    [
      "Reviews",
      count(a.reviewer.reviews),
      `rigor ${percent(a.rates.rigorRate)}, overturned ${percent(a.rates.overturnRate)}`,
    ],
    [
      "On cadence",
      percent(a.rates.cadenceAdherence),
      `${count(a.cadence.onTime)} on time, ${count(a.cadence.late)} late, ${count(a.cadence.staleEpisodes)} stale`,
    ],
    [
      "Cost",
      usd(a.rates.costUsd),
      `${count(a.rates.totalTokens)} tokens, ${count(a.rates.toolCalls)} tool calls`,
    ],
  ];
  return (
    <li data-testid="agent-signals" data-agent={a.agentId}>
      <Card className="space-y-2 text-zinc-600 dark:text-zinc-400">
        <div className="flex flex-wrap items-baseline gap-x-2">
          <h2 className="font-medium text-zinc-900 dark:text-zinc-100">{agentName(a)}</h2>
          {a.displayName && <span className="font-mono text-xs">{a.agentId}</span>}
          {a.roles.length > 0 && <span className="text-xs">{a.roles.join(", ")}</span>}
        </div>
        <dl className="grid grid-cols-2 gap-2 text-xs sm:grid-cols-4">
          {figures.map(([label, value, counts]) => (
            <div key={label} title={counts} data-testid="agent-figure">
              <dt>{label}</dt>
              <dd className="text-base font-medium tabular-nums text-zinc-900 dark:text-zinc-100">{value}</dd>
              {/* The counts in words too: a title is only seen by a mouse. */}
              <dd className="text-[11px] tabular-nums">{counts}</dd>
            </div>
          ))}
        </dl>
        <div className="flex flex-wrap gap-x-6 gap-y-1 text-xs">
          <span className="flex items-center gap-2">
            Cost per day <Sparkline values={trends.cost} label={trends.costLabel} />
          </span>
          <span className="flex items-center gap-2">
            Reviews per day{" "}
            <Sparkline values={trends.reviews} label={trends.reviewsLabel} color={COLOR.good} />
          </span>
        </div>
        <ul
          aria-label={`Pods ${agentName(a)} works in`}
          className="divide-y divide-zinc-100 text-xs dark:divide-zinc-800"
        >
          {rows.map((r) => (
            <li
              key={r.podId}
              data-testid="agent-pod-row"
              className="flex flex-wrap items-center gap-x-3 gap-y-0.5 py-1 tabular-nums"
            >
              <Link
                href={`/pods/${encodeURIComponent(r.podId)}?tab=signals`}
                className="min-w-0 break-all font-medium text-zinc-800 hover:underline dark:text-zinc-200"
              >
                {r.podName}
              </Link>
              <span>approved {percent(r.rates.approvalRate)}</span>
              <span>{count(r.reviewer.reviews)} reviews</span>
              <span>on cadence {percent(r.rates.cadenceAdherence)}</span>
              <span>{compact(r.rates.totalTokens)} tokens</span>
              <span>{usd(r.rates.costUsd)}</span>
            </li>
          ))}
        </ul>
      </Card>
    </li>
  );
}
