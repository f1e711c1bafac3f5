"use client";
import Link from "next/link";

export function UserMenu({ label }: { label: string }) {
  async function signOut() {
    await fetch("/api/auth/sign-out", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    }).catch(() => null);
    window.location.href = "/sign-in";
  }
  return (
    <div className="ml-auto flex items-center gap-1 text-sm sm:gap-3">
      <span className="hidden text-zinc-600 sm:inline dark:text-zinc-400" data-testid="signed-in-as">
        {label}
      </span>
      <Link
        href="/account"
        className="rounded-md px-2 py-1 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
      >
        Account
      </Link>
      <button
        onClick={signOut}
        className="rounded-md px-2 py-1 text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
      >
        Sign out
      </button>
    </div>
  );
}
