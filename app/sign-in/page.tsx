import type { Metadata } from "next";
import { appContext } from "@/server/app-context";
import { SignInForm } from "@/components/shared/sign-in-form";
import { localPath } from "@/server/web/local-path";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  const oidc = appContext().config.oidc;
  const target = localPath(next);
  return (
    <div className="mx-auto mt-16 max-w-sm space-y-6">
      <div className="space-y-1 text-center">
        <h1 className="text-xl font-semibold tracking-tight">Sign in to podwatch</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Watch your pods, answer the inbox, decide.</p>
      </div>
      <SignInForm next={target} oidcName={oidc?.name ?? null} />
    </div>
  );
}
