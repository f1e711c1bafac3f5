import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { PodHeader } from "@/components/pod/pod-header";
import { PodView } from "@/components/pod/pod-view";
import { appContext } from "@/server/app-context";
import { podAccess, atLeast } from "@/server/domain/access/policy";
import { escalationAnswerRefusal } from "@/server/domain/state/reduce-decisions";
import { isApprover } from "@/server/domain/state/rules";
import { currentIdentity, requireViewer } from "@/server/web/current-identity";
import { getPod } from "@/server/pods/read-pods";
import { readLevels } from "@/server/notify/preferences";

export const dynamic = "force-dynamic";

/** "podwatch · <pod name>" for whoever may see the pod; nothing about it for anyone else. */
export async function generateMetadata({
  params,
}: {
  params: Promise<{ podId: string }>;
}): Promise<Metadata> {
  const { podId } = await params;
  const store = appContext().store;
  const state = await store.readState(podId).catch(() => null);
  if (!state || podAccess(await currentIdentity(), podId, state) === "none")
    return { title: "Pod not found" };
  const pod = await getPod(store, podId).catch(() => null);
  return pod ? { title: { absolute: `podwatch · ${pod.name}` } } : { title: "Pod not found" };
}

export default async function PodPage({
  params,
  searchParams,
}: {
  params: Promise<{ podId: string }>;
  searchParams: Promise<{ tab?: string }>;
}) {
  const { podId } = await params;
  const { tab } = await searchParams;
  const who = await requireViewer(`/pods/${podId}${tab ? `?tab=${encodeURIComponent(tab)}` : ""}`);
  const state = await appContext().store.readState(podId);
  const pod = state ? await getPod(appContext().store, podId).catch(() => null) : null;
  const access = podAccess(who, podId, state);
  // The server decides who may act; the page only leaves out controls that would be refused.
  const canAct = who.kind === "user" && atLeast(access, "approver");
  const canAdmin = who.kind === "user" && atLeast(access, "admin");
  // Steering is spoken as one of the pod's approvers: a site admin who is not one would be refused.
  const canSteer = who.kind === "user" && state !== null && isApprover(state, who.email);
  const escalationRefused =
    who.kind === "user" && canAct && state ? escalationAnswerRefusal(state, who.email) : null;
  const notify =
    who.kind === "user" && access !== "none"
      ? ((await readLevels(appContext().store, who.userId)).get(podId) ?? "all")
      : undefined;
  return (
    <div className="space-y-4">
      <PodHeader podId={podId} notify={notify} />
      {access === "none" ? (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          pod not found, or you have no access to it. Ask one of its admins to add you, or go back to{" "}
          <Link href="/pods" className="underline">
            your pods
          </Link>
          .
        </p>
      ) : (
        <Suspense>
          <PodView
            podId={podId}
            canAct={canAct}
            canSteer={canSteer}
            canAdmin={canAdmin}
            escalationRefused={escalationRefused}
            publicUrl={appContext().config.publicUrl}
            head={state?.seq}
            mode={pod?.mode}
            onlooker={who.kind === "share"}
          />
        </Suspense>
      )}
    </div>
  );
}
