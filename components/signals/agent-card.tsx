// One agent on the Agents page, under the table of every figure: its trends (cost and reviews per
// day) and a row per pod it works in, with that pod's key figures and a link to its Signals tab.
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
  return (
    <li data-testid="agent-signals" data-agent={a.agentId}>
      <Card className="space-y-2 text-zinc-600 dark:text-zinc-400">
        <div className="flex flex-wrap items-baseline gap-x-2">
          <h2 className="font-medium text-zinc-900 dark:text-zinc-100">{agentName(a)}</h2>
          {a.displayName && <span className="font-mono text-xs">{a.agentId}</span>}
          {a.roles.length > 0 && <span className="text-xs">{a.roles.join(", ")}</span>}
        </div>
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
