import type { Metadata } from "next";
import { PodList } from "@/components/pod/pod-list";
import { requireViewer } from "@/server/web/current-identity";

export const metadata: Metadata = { title: "Pods" };
export const dynamic = "force-dynamic";

export default async function HomePage() {
  await requireViewer("/");
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Pods</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Every work pod reporting into this podwatch, live.</p>
      </div>
      <PodList />
    </div>
  );
}
