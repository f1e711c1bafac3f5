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
          <p className="break-all text-sm text-zinc-600 dark:text-zinc-400">
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
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">You are watching through a share link; there is no account to manage.</p>
      )}
    </div>
  );
}
