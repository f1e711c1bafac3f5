// Spans that carry nothing we keep (HTTP, database, framework internals…) are answered as
// accepted, never stored, and counted here per pod: in memory since the server started, with a
// log line at most once a minute per pod naming the commonest ones, so "why does my framework's
// span not show up?" has an answer without storing what was ignored.
import type { OtlpSpan } from "./otlp-span";

type PodCount = { ignored: number; names: Map<string, number>; loggedAt: number; loggedCount: number };
const LOG_EVERY_MS = 60_000;
const MAX_NAMES = 20;

export type IgnoredSpanCounter = { add: (podId: string, spans: OtlpSpan[]) => void };

export function createIgnoredSpanCounter(
  log: (line: string) => void = console.info,
  now = Date.now,
): IgnoredSpanCounter {
  const pods = new Map<string, PodCount>();
  return {
    add(podId, spans) {
      if (!spans.length) return;
      let c = pods.get(podId);
      if (!c) pods.set(podId, (c = { ignored: 0, names: new Map(), loggedAt: 0, loggedCount: 0 }));
      c.ignored += spans.length;
      for (const s of spans) {
        const name = s.name.slice(0, 100);
        if (c.names.has(name) || c.names.size < MAX_NAMES) c.names.set(name, (c.names.get(name) ?? 0) + 1);
      }
      if (now() - c.loggedAt < LOG_EVERY_MS) return;
      const top = [...c.names]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([n, k]) => `${JSON.stringify(n)} ×${k}`);
      log(
        `podwatch: OTLP: pod ${podId} ignored ${c.ignored - c.loggedCount} spans without GenAI attributes since the last report (${c.ignored} since start; commonest: ${top.join(", ")})`,
      );
      c.loggedAt = now();
      c.loggedCount = c.ignored;
    },
  };
}
