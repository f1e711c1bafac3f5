// Where approvers see controls, a viewer (or a share link) sees why there are none; and when the
// server ends the page's access (a revoked or expired link), it says so instead of reconnecting.
import type { TapeStatus } from "../tape/use-live-tape";
export function ReadOnlyNotice() {
  return (
    <p
      className="rounded-md border border-zinc-200 bg-zinc-50 px-3 py-2 text-sm text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300"
      data-testid="read-only-notice"
    >
      <span className="font-medium">Read-only:</span> you can watch this pod. Its approvers decide; ask one of
      its admins for more access.
    </p>
  );
}

export function AccessEnded({ status, reason }: { status: TapeStatus; reason: string | null }) {
  if (status !== "ended") return null;
  return (
    <p
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
      data-testid="access-ended"
    >
      {reason ?? "Your access to this pod ended: reload the page to sign in again."}
    </p>
  );
}
