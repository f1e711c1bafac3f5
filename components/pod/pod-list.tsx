"use client";
import Link from "next/link";
import { CadenceAdherence } from "./cadence-adherence";
import { useEffect, useState, useTransition } from "react";
import { archivePod, unarchivePod } from "@/server/web/server-actions";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { PodOverview } from "@/server/wire/pods";
import { Badge, isStale, statusTone } from "../shared/ui";
import { callApi } from "../shared/api-client";
import { listPodsRoute } from "../shared/api-routes";
import { watchPods } from "../shared/socket-client";
import { RelativeTime } from "../shared/relative-time";

/** Pods with their live event counts: counts arrive over the socket, the list refetches when pods are added. */
export function PodList({
  archived = false,
  canCreate = false,
}: {
  archived?: boolean;
  canCreate?: boolean;
}) {
  const qc = useQueryClient();
  const pods = useQuery({
    queryKey: ["pods", archived],
    queryFn: () => callApi(listPodsRoute, archived ? { archived: "1" } : {}).then((r) => r.pods),
    refetchInterval: 30_000,
  });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unwatch = watchPods({
      joined: () => void qc.invalidateQueries({ queryKey: ["pods"] }),
      count: ({ podId, eventCount }) => {
        qc.setQueriesData<PodOverview[]>({ queryKey: ["pods"] }, (old) =>
          old?.map((p) => (p.id === podId ? { ...p, eventCount: Math.max(p.eventCount, eventCount) } : p)),
        );
        // The count moves at once; status, inbox and checkpoint age follow with a (throttled) refetch.
        if (!timer)
          timer = setTimeout(
            () => ((timer = undefined), void qc.invalidateQueries({ queryKey: ["pods"] })),
            1_000,
          );
      },
    });
    return () => {
      clearTimeout(timer);
      unwatch();
    };
  }, [qc]);

  if (pods.isPending) return <ListSkeleton />;
  if (pods.isError)
    return (
      <div
        role="alert"
        className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
      >
        Could not load pods: {pods.error.message}.{" "}
        <button className="underline" onClick={() => pods.refetch()}>
          Try again
        </button>
      </div>
    );
  const other = <ArchiveSwitch archived={archived} />;
  if (pods.data.length === 0)
    return (
      <>
        <div className="rounded-lg border border-dashed border-zinc-300 p-8 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          <p className="font-medium text-zinc-900 dark:text-zinc-100">
            {archived ? "No archived pods" : "No pods yet"}
          </p>
          {!archived && (
            <p className="mt-1">
              {/* Only what this reader can do: the demo pod is visible to its members and site admins only. */}
              {canCreate ? (
                <>
                  Create one with <b>New pod</b> above, or ask a pod&apos;s lead to add you to theirs.
                </>
              ) : (
                <>Ask a pod&apos;s lead to add you to their pod: it shows here as soon as they do.</>
              )}
            </p>
          )}
        </div>
        {other}
      </>
    );
  return (
    <>
      <ul className="divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
        {pods.data.map((pod) => (
          <li key={pod.id} className="flex items-center">
            <Link
              href={`/pods/${pod.id}`}
              className="flex min-w-0 flex-1 items-center gap-4 px-4 py-3 hover:bg-zinc-50 focus-visible:bg-zinc-50 dark:hover:bg-zinc-800/60 dark:focus-visible:bg-zinc-800/60"
              data-testid="pod-row"
            >
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{pod.name}</p>
                <p className="truncate text-xs text-zinc-500">{pod.scope ?? "No scope yet"}</p>
                {pod.cadence && (
                  <CadenceAdherence cadence={pod.cadence} cadenceMinutes={pod.cadenceMinutes} />
                )}
              </div>
              <span className="hidden flex-wrap items-center gap-1 sm:flex">
                <Badge>{pod.mode}</Badge>
                <Badge tone={statusTone(pod.status)}>{pod.status}</Badge>
                {pod.activeAgent && (
                  <Badge tone="sky" title="active agent">
                    {pod.activeAgent}
                  </Badge>
                )}
              </span>
              {pod.inboxCount > 0 && (
                <span
                  className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-950 dark:text-amber-300"
                  title="waiting for a human"
                  data-testid="pod-inbox-count"
                >
                  {pod.inboxCount} waiting
                </span>
              )}
              <span className="text-right text-sm tabular-nums" aria-label={`${pod.eventCount} events`}>
                <span data-testid="event-count" className="font-semibold">
                  {pod.eventCount.toLocaleString()}
                </span>
                <span className="text-zinc-500"> events</span>
              </span>
              <span
                className={`hidden w-32 text-right text-xs md:inline ${isStale(pod.lastCheckpointAt, pod.cadenceMinutes) ? "font-medium text-amber-700 dark:text-amber-400" : "text-zinc-500"}`}
                title="last checkpoint"
              >
                {pod.lastCheckpointAt ? (
                  <>
                    checkpoint <RelativeTime iso={pod.lastCheckpointAt} />
                  </>
                ) : (
                  "no checkpoint yet"
                )}
              </span>
            </Link>
            {pod.access === "admin" && <ArchiveButton podId={pod.id} name={pod.name} archived={archived} />}
          </li>
        ))}
      </ul>
      {other}
    </>
  );
}

/** Archiving only hides a pod from this list (pod admins); it is not on the pod's tape. */
function ArchiveButton({ podId, name, archived }: { podId: string; name: string; archived: boolean }) {
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const toggle = () =>
    start(async () => {
      setError(null);
      const r = await (archived ? unarchivePod : archivePod)({ podId });
      if (!r.ok) setError(r.error);
      await qc.invalidateQueries({ queryKey: ["pods"] });
    });
  return (
    <span className="flex shrink-0 items-center gap-2 pr-3">
      {error && (
        <span role="alert" className="text-xs text-red-700 dark:text-red-400">
          {error}
        </span>
      )}
      <button
        className="rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
        disabled={pending}
        onClick={toggle}
        aria-label={`${archived ? "Unarchive" : "Archive"} ${name}`}
        data-testid={archived ? "unarchive-pod" : "archive-pod"}
      >
        {archived ? "Unarchive" : "Archive"}
      </button>
    </span>
  );
}

function ArchiveSwitch({ archived }: { archived: boolean }) {
  return (
    <p className="text-sm">
      <Link
        href={archived ? "/pods" : "/pods?archived=1"}
        className="text-zinc-600 underline hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100"
        data-testid="archived-link"
      >
        {archived ? "← Back to the pods" : "Archived pods"}
      </Link>
    </p>
  );
}

function ListSkeleton() {
  return (
    <ul aria-busy="true" aria-label="Loading pods" className="space-y-2">
      {[0, 1, 2].map((i) => (
        <li key={i} className="h-14 animate-pulse rounded-lg bg-zinc-200/70 dark:bg-zinc-800/70" />
      ))}
    </ul>
  );
}
