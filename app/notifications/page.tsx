import type { Metadata } from "next";
import { requireViewer } from "@/server/web/current-identity";
import { readNotifications } from "@/server/web/server-actions";
import { NotificationSettings } from "@/components/notifications/notification-settings";

export const metadata: Metadata = { title: "Notifications" };
export const dynamic = "force-dynamic";

export default async function NotificationsPage() {
  const who = await requireViewer("/notifications");
  const data = who.kind === "user" ? await readNotifications({}) : null;
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Notifications</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          What reaches you when podwatch is not open: push to your devices and, when this server mails, email.
        </p>
      </div>
      {data?.ok ? (
        <NotificationSettings initial={data.value} />
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {who.kind === "user"
            ? data?.error
            : "You are watching through a share link; notifications belong to an account."}
        </p>
      )}
    </div>
  );
}
