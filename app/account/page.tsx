import type { Metadata } from "next";
import { requireViewer } from "@/server/web/current-identity";
import { ChangePasswordForm } from "@/components/people/change-password-form";

export const metadata: Metadata = { title: "Your account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const who = await requireViewer("/account");
  return (
    <div className="mx-auto max-w-md space-y-6">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Your account</h1>
        {who.kind === "user" && (
          <p className="text-sm text-zinc-600 wrap-anywhere dark:text-zinc-400">
            Signed in as {who.name} ({who.email}){who.isAdmin ? ", site administrator" : ""}.
          </p>
        )}
      </div>
      {who.kind === "user" ? (
        <section aria-labelledby="change-password" className="space-y-3">
          <h2 id="change-password" className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
            Change password
          </h2>
          <ChangePasswordForm email={who.email} />
        </section>
      ) : null}
      {who.kind === "user" ? (
        <section aria-labelledby="notifications-link" className="space-y-1">
          <h2 id="notifications-link" className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
            Notifications
          </h2>
          <p className="text-sm">
            <a href="/notifications" className="font-medium underline">
              Push, email and quiet hours
            </a>
            : turn push on for this device, choose what each pod sends you.
          </p>
        </section>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          You are watching through a share link; there is no account to manage.
        </p>
      )}
    </div>
  );
}
