// Log records and metric points whose names podwatch does not map (another agent's, a newer
// release's) are answered as accepted, never stored, and counted here per pod and name: in memory
// since this server started (each node counts what it received), read by the pod's OpenTelemetry
// view (otlp-operations.ts, readOtlpUnmapped), and logged at most once a minute per pod.
import type { AgentRecord } from "./agent-records";

export type UnmappedName = { name: string; signal: "log" | "metric"; count: number };
export type UnmappedView = { total: number; names: UnmappedName[]; since: string };
type PodCount = { total: number; names: Map<string, UnmappedName>; loggedAt: number; loggedTotal: number };

/** Names kept per pod; past them, records are still counted in the total. */
export const MAX_UNMAPPED_NAMES = 50;
const LOG_EVERY_MS = 60_000;

export type UnmappedCounter = {
  add: (podId: string, records: AgentRecord[]) => void;
  read: (podId: string) => UnmappedView;
};

export function createUnmappedCounter(
  log: (line: string) => void = console.info,
  now = Date.now,
): UnmappedCounter {
  const pods = new Map<string, PodCount>();
  const since = new Date(now()).toISOString();
  return {
    add(podId, records) {
      if (!records.length) return;
      let c = pods.get(podId);
      if (!c) pods.set(podId, (c = { total: 0, names: new Map(), loggedAt: 0, loggedTotal: 0 }));
      c.total += records.length;
      for (const r of records) {
        const key = `${r.signal}\n${r.name}`;
        const known = c.names.get(key);
        if (known) known.count++;
        else if (c.names.size < MAX_UNMAPPED_NAMES)
          c.names.set(key, { name: r.name, signal: r.signal, count: 1 });
      }
      if (now() - c.loggedAt < LOG_EVERY_MS) return;
      const top = [...c.names.values()]
        .sort((a, b) => b.count - a.count)
        .slice(0, 5)
        .map((n) => `${JSON.stringify(n.name)} ×${n.count}`);
      log(
        `podwatch: OTLP: pod ${podId} received ${c.total - c.loggedTotal} log records or metric points it does ` +
          `not map since the last report (${c.total} since start; commonest: ${top.join(", ")})`,
      );
      c.loggedAt = now();
      c.loggedTotal = c.total;
    },
    read(podId) {
      const c = pods.get(podId);
      const names = c ? [...c.names.values()].sort((a, b) => b.count - a.count).map((n) => ({ ...n })) : [];
      return { total: c?.total ?? 0, names, since };
    },
  };
}
