"use client";
// The site-wide Agents page: every agent across the person's pods in the pod tab's table (the same
// columns, families and explanations: signal-columns.ts) with its cost per day as a trend, then a
// card per agent with its trends and the pods it works in; filtered by pod and by agent, and the
// same figures to download as CSV or JSON (with the filters).
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { callApi } from "../shared/api-client";
import { signalsExportRoute } from "../shared/api-routes";
import { Empty, Skeleton } from "../shared/ui";
import { AgentCard } from "./agent-card";
import { AgentSignalsTable, type ExtraColumn } from "./agent-signals-table";
import { agentTrends } from "./agent-trends";
import { EXPLANATIONS } from "./signal-explanations";
import { Sparkline } from "./sparkline";
import { agentEntries, agentsIn, exportUrl, onlyAgent, podsIn } from "./agents-across-pods";
import { CHART_COLOR_VARS } from "./chart-colors";
import { NO_SIGNALS } from "./format-signals";

const selectStyle =
  "max-w-[14rem] rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";
const linkStyle =
  "rounded-md border border-zinc-300 px-2 py-1 text-xs hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-zinc-700 dark:hover:bg-zinc-800";

const trendColumn: ExtraColumn = {
  id: "trend",
  label: "Cost per day",
  explain: EXPLANATIONS.trend,
  cell: (a) => {
    const t = agentTrends(a);
    return <Sparkline values={t.cost} label={t.costLabel} />;
  },
};

export function AgentsOverview() {
  const signals = useQuery({
    queryKey: ["signals-export"],
    queryFn: () => callApi(signalsExportRoute, {}),
    refetchInterval: 60_000,
  });
  const [podId, setPodId] = useState<string | null>(null);
  const [agentId, setAgentId] = useState<string | null>(null);
  if (signals.isPending) return <Skeleton label="Loading agents" className="h-64 rounded-lg" />;
  if (signals.isError)
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        Could not load the agents: {signals.error.message}
      </p>
    );
  const pods = podsIn(signals.data);
  const chosen = podId && pods.some((p) => p.podId === podId) ? podId : null;
  const inPod = agentEntries(signals.data, chosen);
  // The agents offered are the pod's (or everyone's); a choice the pod lacks falls back to all.
  const agents = agentsIn(inPod);
  const agent = agentId && agents.some((a) => a.agentId === agentId) ? agentId : null;
  const entries = onlyAgent(inPod, agent);
  return (
    <div className={`space-y-3 ${CHART_COLOR_VARS}`}>
      <div className="flex flex-wrap items-center gap-2">
        <label className="flex items-center gap-2 text-sm">
          Pod
          <select
            value={chosen ?? ""}
            onChange={(e) => setPodId(e.target.value || null)}
            className={selectStyle}
          >
            <option value="">All pods ({pods.length})</option>
            {pods.map((p) => (
              <option key={p.podId} value={p.podId}>
                {p.podName}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm">
          Agent
          <select
            value={agent ?? ""}
            onChange={(e) => setAgentId(e.target.value || null)}
            className={selectStyle}
          >
            <option value="">All agents ({agents.length})</option>
            {agents.map((a) => (
              <option key={a.agentId} value={a.agentId}>
                {a.name === a.agentId ? a.name : `${a.name} (${a.agentId})`}
              </option>
            ))}
          </select>
        </label>
        <span className="ml-auto flex gap-2">
          <a href={exportUrl("csv", chosen, agent)} download className={linkStyle}>
            Download CSV
          </a>
          <a href={exportUrl("json", chosen, agent)} download className={linkStyle}>
            Download JSON
          </a>
        </span>
      </div>
      {entries.length === 0 ? (
        <Empty>{NO_SIGNALS}</Empty>
      ) : (
        <>
          <AgentSignalsTable
            agents={entries.map((e) => e.agent)}
            caption={chosen ? "Signals per agent in this pod" : "Signals per agent across your pods"}
            extra={trendColumn}
          />
          <ul className="space-y-2" aria-label="Agents" data-testid="agents-list">
            {entries.map((e) => (
              <AgentCard key={e.agent.agentId} entry={e} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
