import type { Metadata } from "next";
import { InboxList } from "@/components/inbox/inbox-list";
import { currentIdentity, requireViewer } from "@/server/web/current-identity";
import { appContext } from "@/server/app-context";
import { readInbox } from "@/server/pods/read-inbox";

export const dynamic = "force-dynamic";

/** "Inbox (3) · podwatch": the count as the server rendered it (the navigation's badge stays live). */
export async function generateMetadata(): Promise<Metadata> {
  const who = await currentIdentity();
  if (who.kind === "anonymous") return { title: "Inbox" };
  const items = await readInbox(appContext().store, who).catch(() => null);
  return { title: items && items.length ? `Inbox (${items.length})` : "Inbox" };
}

export default async function InboxPage() {
  await requireViewer("/inbox");
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Inbox</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Escalations to answer, held tool calls, work to approve, deliveries to accept — across your pods, in
          groups; in each, what is due soonest first, then what has waited longest.
        </p>
      </div>
      <InboxList />
    </div>
  );
}
