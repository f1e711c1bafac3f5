import Link from "next/link";
import { Suspense } from "react";
import { PodHeader } from "@/components/pod/pod-header";
import { PodView } from "@/components/pod/pod-view";
import { appContext } from "@/server/app-context";
import { podAccess, atLeast } from "@/server/domain/access/policy";
import { requireViewer } from "@/server/web/current-identity";

export const dynamic = "force-dynamic";

export default async function PodPage({ params, searchParams }: { params: Promise<{ podId: string }>; searchParams: Promise<{ tab?: string }> }) {
  const { podId } = await params;
  const { tab } = await searchParams;
  const who = await requireViewer(`/pods/${podId}${tab ? `?tab=${encodeURIComponent(tab)}` : ""}`);
  const state = await appContext().store.readState(podId);
  const access = podAccess(who, podId, state);
  // The server decides who may act; the page only leaves out controls that would be refused.
  const canAct = who.kind === "user" && atLeast(access, "approver");
  const canAdmin = who.kind === "user" && atLeast(access, "admin");
  return (
    <div className="space-y-4">
      <PodHeader podId={podId} />
      {access === "none" ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
          pod not found, or you have no access to it. Ask one of its admins to add you, or go back to <Link href="/" className="underline">your pods</Link>.
        </p>
      ) : (
        <Suspense>
          <PodView podId={podId} canAct={canAct} canAdmin={canAdmin} publicUrl={appContext().config.publicUrl} head={state?.seq} />
        </Suspense>
      )}
    </div>
  );
}
