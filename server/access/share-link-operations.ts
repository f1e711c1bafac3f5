// A pod's share links (read-only, expiring, revocable), managed by its admins. Declared once:
// the REST routes, the control room's server actions and the reference come from this table.
import { z } from "zod";
import { defineOperation, ZPodId } from "../operations/operation";
import * as wire from "../wire/access";
import { createShareLink, listShareLinks, revokeShareLink, shareLinkUrl } from "./share-links";

const ADMIN = { pod: "admin" } as const;
const tag = "Share links";

export const shareLinkOperations = {
  createShareLink: defineOperation({
    name: "createShareLink",
    summary:
      "A read-only link to the pod for someone without an account. It expires in `expiresInHours` (default 7 days; " +
      "`null`: never) or at `expiresAt`; the body may be left out. Its secret and URL are in this answer only.",
    tag,
    input: z.object({ podId: ZPodId, link: wire.ZCreateShareLinkRequest }),
    output: wire.ZShareLinkCreated,
    guard: ADMIN,
    http: { method: "POST", path: "/api/v1/pods/{podId}/share-links", status: 201, body: "link" },
    action: true,
    run: async ({ app, actor }, a) => {
      const { token, info } = await createShareLink(app.store, {
        podId: a.podId,
        createdBy: actor,
        ...a.link,
      });
      return { token, url: shareLinkUrl(app.config.publicUrl, token), ...info };
    },
  }),
  listShareLinks: defineOperation({
    name: "listShareLinks",
    summary: "The pod's share links, oldest first, revoked ones too; never their secrets.",
    tag,
    input: z.object({ podId: ZPodId }),
    output: wire.ZShareLinksResponse,
    guard: ADMIN,
    http: { method: "GET", path: "/api/v1/pods/{podId}/share-links", status: 200 },
    action: true,
    run: async ({ app }, a) => ({ links: await listShareLinks(app.store, a.podId) }),
  }),
  revokeShareLink: defineOperation({
    name: "revokeShareLink",
    summary: "Revokes a link at once: it opens nothing more, and the live tapes it opened end.",
    tag,
    input: z.object({ podId: ZPodId, linkId: z.string().min(1).max(100) }),
    output: wire.ZShareLinkInfo,
    guard: ADMIN,
    http: { method: "DELETE", path: "/api/v1/pods/{podId}/share-links/{linkId}", status: 200 },
    action: true,
    run: ({ app }, a) => revokeShareLink(app.store, app.bus, a.podId, a.linkId),
  }),
};
