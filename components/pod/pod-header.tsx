"use client";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import type { NotifyLevel } from "@/server/wire/notifications";
import { callApi } from "../shared/api-client";
import { getPodRoute } from "../shared/api-routes";
import { PodNotifyLevel } from "../notifications/pod-notify-level";
import { Skeleton } from "../shared/ui";

/** `notify`: the signed-in person's level for this pod (absent for a share link's onlooker). */
export function PodHeader({ podId, notify }: { podId: string; notify?: NotifyLevel }) {
  const pod = useQuery({ queryKey: ["pod", podId], queryFn: () => callApi(getPodRoute, { podId }) });
  return (
    <div className="space-y-1">
      <Link href="/pods" className="text-sm text-zinc-500 hover:text-zinc-900 dark:hover:text-zinc-100">
        ← All pods
      </Link>
      {pod.isPending ? (
        <Skeleton label="Loading pod" className="h-7 w-48 rounded" />
      ) : pod.isError ? (
        <h1 className="text-xl font-semibold">
          {pod.error.message === "pod not found" ? "Pod not found" : "Pod unavailable"}
        </h1>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-xl font-semibold tracking-tight">{pod.data.name}</h1>
            <span className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
              {pod.data.mode}
            </span>
            {notify && (
              <div className="sm:ml-auto">
                <PodNotifyLevel podId={podId} initial={notify} />
              </div>
            )}
          </div>
          {pod.data.scope && (
            <p className="max-w-3xl text-sm text-zinc-600 dark:text-zinc-400">{pod.data.scope}</p>
          )}
        </>
      )}
    </div>
  );
}
