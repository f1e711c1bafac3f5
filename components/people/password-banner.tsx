// Every page, for the first-start admin until they choose their own password:
// a banner, not a wall (they can still use everything).
import Link from "next/link";

/** Shown while the first-start admin still uses the printed password (the session says so). */
export function PasswordBanner({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <div
      role="region"
      aria-label="Choose your own password"
      data-testid="password-banner"
      className="border-b border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-200"
    >
      <p className="mx-auto max-w-6xl px-4 py-2 text-sm">
        You are signed in with the password printed at the first start.{" "}
        <Link href="/account" className="font-medium underline">
          Choose your own password
        </Link>
        .
      </p>
    </div>
  );
}
