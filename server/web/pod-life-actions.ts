// A pod's life and its share links, from the control room (pod admins): the
// same use-cases and the same access as their API twins.
import { createShareLink, listShareLinks, revokeShareLink, shareLinkUrl } from "../access/share-links";
import { setPodArchived } from "../pods/archive-pod";
import type { ShareLinkCreated } from "../wire/access";
import type { TEvent } from "../wire/events";
import { ZClosePodInput, ZCreateShareLinkInput, ZPodInput, ZSetArchivedInput, ZShareLinkInput } from "../wire/actions";
import { definePodAction, definePodCall } from "../pods/perform-pod-action";

export const startPodAction = definePodAction({
  schema: ZPodInput,
  need: "admin" as const,
  events: (_a, actor): TEvent[] => [{ type: "pod.started", actor, body: {} }],
});

export const closePodAction = definePodAction({
  schema: ZClosePodInput,
  need: "admin" as const,
  events: (a, actor): TEvent[] => [{ type: "pod.closed", actor, body: a.reason ? { reason: a.reason } : {} }],
});

/** Twin of POST /api/v1/pods/{id}/archive and /unarchive. */
export const setArchivedCall = definePodCall({
  schema: ZSetArchivedInput,
  need: "admin" as const,
  run: (app, a) => setPodArchived(app.store, a.podId, a.archived),
});

/** Twin of POST …/share-links: the link's secret is in this caller's result only. */
export const createShareLinkCall = definePodCall({
  schema: ZCreateShareLinkInput,
  need: "admin" as const,
  run: async (app, a, actor): Promise<ShareLinkCreated> => {
    const { token, info } = await createShareLink(app.store, { podId: a.podId, createdBy: actor, ...a.link });
    return { token, url: shareLinkUrl(app.config.publicUrl, token), ...info };
  },
});

export const listShareLinksCall = definePodCall({
  schema: ZPodInput,
  need: "admin" as const,
  run: (app, a) => listShareLinks(app.store, a.podId),
});

export const revokeShareLinkCall = definePodCall({
  schema: ZShareLinkInput,
  need: "admin" as const,
  run: (app, a) => revokeShareLink(app.store, app.bus, a.podId, a.linkId),
});
