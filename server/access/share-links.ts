// Read-only links to watch one pod without an account: expiring, revocable.
import { randomUUID } from "node:crypto";
import type { TapeStore } from "../db/tape-store";
import { notFound } from "../domain/errors";
import type { TapeBus } from "../tape/bus";
import { SHARE_LINK_NEVER, type ShareLinkInfo, type TCreateShareLinkRequest } from "../wire/access";
import { SHARE_TOKEN_PREFIX, hashSecret, newSecret } from "./secrets";

export async function createShareLink(
  store: TapeStore,
  input: { podId: string; createdBy: string } & TCreateShareLinkRequest,
) {
  const token = newSecret(SHARE_TOKEN_PREFIX);
  const now = Date.now();
  const expiresAt =
    input.expiresAt !== undefined
      ? new Date(input.expiresAt).toISOString()
      : input.expiresInHours === null
        ? SHARE_LINK_NEVER
        : new Date(now + (input.expiresInHours ?? 24 * 7) * 3_600_000).toISOString();
  const row = await store.prisma.shareLink.create({
    data: {
      id: randomUUID(),
      podId: input.podId,
      tokenHash: hashSecret(token),
      label: input.label || null,
      createdAt: new Date(now).toISOString(),
      createdBy: input.createdBy,
      expiresAt,
    },
  });
  return { token, info: toInfo(row) };
}

/** The link's URL, as shown once at creation. */
export const shareLinkUrl = (publicUrl: string, token: string) => `${publicUrl}/share/${token}`;

export async function listShareLinks(store: TapeStore, podId: string): Promise<ShareLinkInfo[]> {
  return (await store.prisma.shareLink.findMany({ where: { podId }, orderBy: { createdAt: "asc" } })).map(
    toInfo,
  );
}

/** Revokes at once: the link opens nothing more, and the sockets it opened are ended (the bus tells the socket layer). */
export async function revokeShareLink(
  store: TapeStore,
  bus: TapeBus,
  podId: string,
  linkId: string,
): Promise<ShareLinkInfo> {
  const row = await store.prisma.shareLink.findFirst({ where: { id: linkId, podId } });
  if (!row) throw notFound("share link");
  const updated = row.revokedAt
    ? row
    : await store.prisma.shareLink.update({
        where: { id: linkId },
        data: { revokedAt: new Date().toISOString() },
      });
  bus.emit("credential-revoked", { kind: "share-link", linkId });
  return toInfo(updated);
}

/** The pod a share token opens, if it is live. */
export async function verifyShareToken(
  store: TapeStore,
  token: string,
): Promise<{ linkId: string; podId: string } | null> {
  if (!token.startsWith(SHARE_TOKEN_PREFIX)) return null;
  const row = await store.prisma.shareLink.findUnique({ where: { tokenHash: hashSecret(token) } });
  const now = new Date().toISOString();
  if (!row || row.revokedAt || row.expiresAt <= now) return null;
  // "Last used", to the minute: one small write a minute per link at most, never in the reader's way.
  if (!row.lastUsedAt || Date.parse(now) - Date.parse(row.lastUsedAt) > 60_000) {
    store.prisma.shareLink.update({ where: { id: row.id }, data: { lastUsedAt: now } }).catch(() => {});
  }
  return { linkId: row.id, podId: row.podId };
}

function toInfo(r: ShareLinkInfo & { tokenHash?: string }): ShareLinkInfo {
  return {
    id: r.id,
    podId: r.podId,
    label: r.label,
    createdAt: r.createdAt,
    createdBy: r.createdBy,
    expiresAt: r.expiresAt,
    lastUsedAt: r.lastUsedAt,
    revokedAt: r.revokedAt,
  };
}
