import type { Metadata } from "next";
import { PodList } from "@/components/pod/pod-list";
import { NewPodButton } from "@/components/pod/new-pod-form";
import { mayCreatePods } from "@/server/domain/access/policy";
import { requireViewer } from "@/server/web/current-identity";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Pods" };

export default async function PodsPage({ searchParams }: { searchParams: Promise<{ archived?: string }> }) {
  const who = await requireViewer("/pods");
  const archived = (await searchParams).archived === "1";
  // The server decides who may create pods (POST /api/v1/pods, the createPod action); the page only leaves the button out.
  const canCreate = who.kind === "user" && mayCreatePods(who);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold tracking-tight">{archived ? "Archived pods" : "Pods"}</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {archived
              ? "Pods hidden from the list. Their tapes are kept as they were."
              : "Every work pod reporting into this podwatch, live."}
          </p>
        </div>
        {canCreate && !archived && <NewPodButton />}
      </div>
      <PodList archived={archived} canCreate={canCreate} />
    </div>
  );
}
