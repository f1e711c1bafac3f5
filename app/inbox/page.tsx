import type { Metadata } from "next";
import { InboxList } from "@/components/inbox/inbox-list";
import { requireViewer } from "@/server/web/current-identity";

export const metadata: Metadata = { title: "Inbox" };
export const dynamic = "force-dynamic";

export default async function InboxPage() {
  await requireViewer("/inbox");
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Inbox</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Escalations to answer, work to approve, deliveries to accept — across your pods, oldest first.</p>
      </div>
      <InboxList />
    </div>
  );
}
