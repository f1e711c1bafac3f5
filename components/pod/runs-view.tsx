"use client";
// The pod's runs (docs/protocol/runs-and-notes.md): verification by self and director, commit or discard, notes.
import type { PodStateView } from "@/server/wire/views";
import { RelativeTime } from "../shared/relative-time";
import { Badge, Card, Empty } from "../shared/ui";

export function RunsView({ state }: { state: PodStateView }) {
  if (state.runs.length === 0) return <Empty>No runs yet. Agents start one with run.started.</Empty>;
  return (
    <ul className="space-y-2" data-testid="runs">
      {[...state.runs].reverse().map((r) => (
        <li key={r.runId}>
          <Card>
            <div className="flex flex-wrap items-center gap-2 text-sm">
              <span className="font-mono font-medium">{r.runId}</span>
              <Badge tone={r.status === "committed" ? "green" : r.status === "discarded" ? "red" : "sky"}>
                {r.status}
              </Badge>
              <span className="text-zinc-600 dark:text-zinc-400">
                on {r.workItemId} · {r.mood} · by {r.startedBy}
              </span>
              <span className="ml-auto text-xs text-zinc-600 dark:text-zinc-400">
                <RelativeTime iso={r.at} />
              </span>
            </div>
            <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
              self {r.selfVerified === null ? "—" : r.selfVerified ? "passed" : "failed"} · director{" "}
              {r.directorVerified === null ? "—" : r.directorVerified ? "passed" : "failed"}
              {r.commit && (
                <>
                  {" "}
                  · commit <span className="font-mono">{r.commit}</span>
                </>
              )}
              {r.discardReason && <> · discarded: {r.discardReason}</>}
              {r.noteSeqs.length > 0 && (
                <>
                  {" "}
                  · notes{" "}
                  {r.noteSeqs.map((s) => (
                    <a key={s} href={`?tab=tape#seq-${s}`} className="ml-1 font-mono hover:underline">
                      #{s}
                    </a>
                  ))}
                </>
              )}
            </p>
          </Card>
        </li>
      ))}
    </ul>
  );
}
