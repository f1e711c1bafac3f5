"use client";
// What the pod's agents sent over OpenTelemetry (log records, metrics) that podwatch does not map,
// counted per name by the server since it started: shown, so a name that never becomes a session,
// prompt, tool call or usage is seen rather than lost. Refetched as the tape moves.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { callApi } from "../shared/api-client";
import { otlpUnmappedRoute } from "../shared/api-routes";
import { Section } from "../shared/ui";

export function UnmappedTelemetry({ podId, seq }: { podId: string; seq: number }) {
  const unmapped = useQuery({
    queryKey: ["otlp-unmapped", podId, seq],
    placeholderData: keepPreviousData,
    queryFn: () => callApi(otlpUnmappedRoute, { podId }),
    refetchInterval: 60_000,
  });
  const view = unmapped.data;
  if (!view || view.total === 0) return null;
  return (
    <Section
      title="OpenTelemetry not mapped"
      aside={
        <span className="text-xs text-zinc-500">
          {view.total.toLocaleString("en-US")} records since the server started
        </span>
      }
    >
      <p className="mb-2 text-xs text-zinc-600 dark:text-zinc-400">
        Log records and metrics your agents sent that podwatch keeps nothing of (another agent&apos;s names,
        or a newer release&apos;s).
      </p>
      <ul className="space-y-1 text-sm" data-testid="otlp-unmapped">
        {view.names.map((n) => (
          <li key={`${n.signal} ${n.name}`} className="flex gap-2">
            <span className="font-mono">{n.name}</span>
            <span className="text-zinc-500">
              {n.signal} · ×{n.count.toLocaleString("en-US")}
            </span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
