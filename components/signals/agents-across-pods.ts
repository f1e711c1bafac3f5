// The Agents page's model: each agent with its figures (added up across the person's pods, or
// one pod's when filtered) and the pods it works in, one row each; narrowed to one agent on request.
import type { AgentSignalsView, SignalsExport } from "@/server/wire/signals";
import { agentName } from "./signal-columns";

type PodRow = SignalsExport["rows"][number];
export type AgentEntry = { agent: AgentSignalsView; rows: PodRow[] };

export function podsIn(exp: SignalsExport): { podId: string; podName: string }[] {
  const seen = new Map<string, string>();
  for (const r of exp.rows) if (!seen.has(r.podId)) seen.set(r.podId, r.podName);
  return [...seen]
    .map(([podId, podName]) => ({ podId, podName }))
    .sort((a, b) => a.podName.localeCompare(b.podName) || a.podId.localeCompare(b.podId));
}

/** Every agent (the pod's figures only when `podId` is given), by name; its rows by pod name. */
export function agentEntries(exp: SignalsExport, podId: string | null): AgentEntry[] {
  const rows = podId ? exp.rows.filter((r) => r.podId === podId) : exp.rows;
  const byAgent = new Map<string, PodRow[]>();
  for (const r of rows) byAgent.set(r.agentId, [...(byAgent.get(r.agentId) ?? []), r]);
  const merged = new Map(exp.agents.map((a) => [a.agentId, a]));
  return [...byAgent]
    .map(([agentId, its]) => ({
      agent: podId ? its[0]! : (merged.get(agentId) ?? its[0]!),
      rows: [...its].sort((a, b) => a.podName.localeCompare(b.podName)),
    }))
    .sort(
      (a, b) =>
        agentName(a.agent).localeCompare(agentName(b.agent)) ||
        a.agent.agentId.localeCompare(b.agent.agentId),
    );
}

/** The agents of a list of entries, for the agent filter: id and name, in the entries' order. */
export const agentsIn = (entries: AgentEntry[]) =>
  entries.map((e) => ({ agentId: e.agent.agentId, name: agentName(e.agent) }));

/** One agent's entry when `agentId` is given (none when it is not among them), else all. */
export const onlyAgent = (entries: AgentEntry[], agentId: string | null) =>
  agentId === null ? entries : entries.filter((e) => e.agent.agentId === agentId);

/** The export's URL for a download, with the page's pod and agent filters. */
export function exportUrl(
  format: "csv" | "json",
  podId: string | null,
  agentId: string | null = null,
): string {
  const q = new URLSearchParams();
  if (podId) q.set("pod", podId);
  if (agentId) q.set("agent", agentId);
  if (format === "csv") q.set("format", "csv");
  const s = q.toString();
  return `/api/v1/signals${s ? `?${s}` : ""}`;
}
