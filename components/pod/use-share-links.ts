"use client";
// The pod's share links (pod admins only): the Sharing section lists them, the setup checklist ticks
// its step when one still works. One query, so both read the same list.
import { useQuery } from "@tanstack/react-query";
import type { ShareLinkInfo } from "@/server/wire/access";
import { listShareLinks } from "@/server/web/server-actions";

export const SHARE_LINK_NEVER = "9999-12-31T23:59:59.999Z"; // the wire's value; the browser takes only types from it
export const shareLinksKey = (podId: string) => ["share-links", podId];

export function useShareLinks(podId: string, enabled = true) {
  return useQuery({
    queryKey: shareLinksKey(podId),
    enabled,
    queryFn: async () => {
      const r = await listShareLinks({ podId });
      if (!r.ok) throw new Error(r.error);
      return r.value.links;
    },
  });
}

/** Whether a link still lets someone in at `now` (not revoked, not expired). */
export const linkWorks = (l: ShareLinkInfo, now: number) =>
  !l.revokedAt && (l.expiresAt === SHARE_LINK_NEVER || Date.parse(l.expiresAt) > now);
