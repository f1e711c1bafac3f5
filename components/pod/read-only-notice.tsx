// Where approvers see controls, a viewer (or a share link) sees why there are none.
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
