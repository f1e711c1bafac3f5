// For Next's server components and server actions: who is asking, from the
// request's cookies, through the same resolver as the agent API.
import { cache } from "react";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { maybeAppContext } from "../app-context";
import type { Identity } from "../domain/access/policy";
import { resolveIdentity } from "../access/resolve-identity";

/** Resolved once per request: the layout and the page both ask (React's per-render cache). */
export const currentIdentity = cache(async (): Promise<Identity> => {
  const app = maybeAppContext();
  if (!app) return { kind: "anonymous" }; // prerendering at build time: nobody is asking
  const id = await resolveIdentity(app.access, await headers());
  return id === "invalid" ? { kind: "anonymous" } : id;
});

/** Pages call this first: anonymous visitors go to the sign-in page and come back after. */
export async function requireViewer(next: string): Promise<Identity> {
  const id = await currentIdentity();
  if (id.kind === "anonymous") redirect(`/sign-in?next=${encodeURIComponent(next)}`);
  return id;
}
