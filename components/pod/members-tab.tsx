"use client";
// The Members tab: who is in the pod and what they may do, the pod's links, webhooks, tool rules and
// budgets. Its code loads when the tab is first opened (./pod-view.tsx), not with the board.
import type { PodStateView } from "@/server/wire/views";
import { MemberControls } from "./steer-controls";
import { MembersView } from "./members-view";
import { ShareLinksPanel } from "./share-links-panel";
import { WebhooksPanel } from "../webhooks/webhooks-panel";
import { ToolPoliciesPanel } from "../gates/tool-policies-panel";
import { BudgetsPanel } from "../budgets/budgets-panel";

export function MembersTab({
  podId,
  state,
  canAct,
  canAdmin,
  publicUrl,
}: {
  podId: string;
  state: PodStateView;
  canAct: boolean;
  canAdmin: boolean;
  publicUrl: string;
}) {
  return (
    <div className="space-y-6">
      {canAct && <MemberControls podId={podId} state={state} />}
      <MembersView podId={podId} state={state} canAdmin={canAdmin} publicUrl={publicUrl} />
      {canAdmin && <ShareLinksPanel podId={podId} />}
      {canAdmin && <WebhooksPanel podId={podId} />}
      <ToolPoliciesPanel podId={podId} state={state} canAdmin={canAdmin} />
      <BudgetsPanel podId={podId} state={state} canAct={canAct} />
    </div>
  );
}
