import { PodHeader } from "@/components/pod-header";
import { TapeView } from "@/components/tape-view";
import { InboxPanel } from "@/components/inbox-panel";
import { appContext } from "@/server/app-context";
import { podAccess, atLeast } from "@/server/domain/access/policy";
import { requireViewer } from "@/server/web/current-identity";

export const dynamic = "force-dynamic";

export default async function PodPage({ params }: { params: Promise<{ podId: string }> }) {
  const { podId } = await params;
  const who = await requireViewer(`/pods/${podId}`);
  const access = podAccess(who, podId, await appContext().store.readState(podId));
  // The server decides who may act; the page only leaves out controls that would be refused.
  const canAct = who.kind === "user" && atLeast(access, "approver");
  return (
    <div className="space-y-6">
      <PodHeader podId={podId} />
      {access !== "none" && <InboxPanel podId={podId} canAct={canAct} />}
      <TapeView podId={podId} />
    </div>
  );
}
