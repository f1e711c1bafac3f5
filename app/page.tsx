import type { Metadata } from "next";
import Link from "next/link";
import { Suspense } from "react";
import { SteerableNow } from "@/components/now/steerable-now";
import { requireViewer } from "@/server/web/current-identity";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Now" };

/** The control room's home: what every agent of the person's pods is doing now. */
export default async function NowPage() {
  await requireViewer("/");
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold tracking-tight">Now</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Every agent session across your pods, live. &ldquo;Today&rdquo; starts at midnight UTC; press{" "}
            <kbd>?</kbd> for keys.
          </p>
        </div>
        <Link href="/pods" className="text-sm underline">
          All pods →
        </Link>
      </div>
      <Suspense>
        <SteerableNow />
      </Suspense>
    </div>
  );
}
