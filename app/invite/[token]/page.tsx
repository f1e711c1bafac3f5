import type { Metadata } from "next";
import Link from "next/link";
import { appContext } from "@/server/app-context";
import { lookUpInvite } from "@/server/access/accept-invite";
import { AcceptInviteForm } from "@/components/people/accept-invite-form";

export const metadata: Metadata = { title: "Choose your password", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

const closed = {
  unknown: [
    "This link is not valid",
    "Check that you copied the whole link, or ask an administrator for a new one.",
  ],
  used: [
    "This link was already used",
    "Each link works once. Sign in with the password you chose, or ask an administrator for a new link.",
  ],
  expired: ["This link has expired", "Links work for 7 days. Ask an administrator for a new one."],
} as const;

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = await lookUpInvite(appContext().store, decodeURIComponent(token).slice(0, 200));
  if (invite.state !== "open") {
    const [title, text] = closed[invite.state];
    return (
      <div className="mx-auto mt-16 max-w-sm space-y-3 text-center" data-testid="invite-closed">
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{text}</p>
        {invite.state === "used" && (
          <Link href="/sign-in" className="text-sm underline">
            Sign in
          </Link>
        )}
      </div>
    );
  }
  return (
    <div className="mx-auto mt-16 max-w-sm space-y-6">
      <div className="space-y-1 text-center">
        <h1 className="text-xl font-semibold tracking-tight">
          {invite.kind === "invite" ? "Welcome to podwatch" : "Choose a new password"}
        </h1>
        <p className="text-sm break-all text-zinc-600 dark:text-zinc-400">
          {invite.kind === "invite" ? "Choose a password to sign in as " : "For "}
          <strong data-testid="invite-email">{invite.email}</strong>
        </p>
      </div>
      <AcceptInviteForm token={token} email={invite.email} kind={invite.kind} />
    </div>
  );
}
