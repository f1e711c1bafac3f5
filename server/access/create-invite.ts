// A one-time link for a person to choose a password: "invite" for someone new,
// "reset" for someone who has an account. The secret is returned once; only its
// SHA-256 is stored. A new link for the same email supersedes any older one.
import { randomUUID } from "node:crypto";
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import { conflict, notFound } from "../domain/errors";
import type { InviteCreated, InviteInfo, InviteKind } from "../wire/access";
import { INVITE_TOKEN_PREFIX, hashSecret, newSecret } from "./secrets";
import { sendInviteMail } from "./send-invite-mail";

export const INVITE_LIFETIME_MS = 7 * 24 * 3_600_000;

type Deps = { store: TapeStore; config: Pick<Config, "publicUrl" | "smtp"> };

/** Site admins invite a person by email; refused (nothing stored) if they have an account or a pending invite. */
export async function createInvite(
  deps: Deps,
  input: { email: string; name?: string; createdBy: string },
  now = Date.now(),
): Promise<InviteCreated> {
  const { store } = deps;
  if (await store.prisma.user.findUnique({ where: { email: input.email } }))
    throw conflict("user_exists", `${input.email} already has an account`);
  const pending = await store.prisma.invite.findFirst({
    where: {
      email: input.email,
      kind: "invite",
      usedAt: null,
      expiresAt: { gt: new Date(now).toISOString() },
    },
  });
  if (pending)
    throw conflict(
      "invite_pending",
      `${input.email} already has an invite waiting (until ${pending.expiresAt.slice(0, 10)}); it was shown when it was made`,
    );
  return issue(
    deps,
    { email: input.email, name: input.name ?? null, kind: "invite", createdBy: input.createdBy },
    now,
  );
}

/** Site admins reset a person's password: a reset link (the old password works until it is used). */
export async function createPasswordReset(
  deps: Deps,
  input: { userId: string; createdBy: string },
  now = Date.now(),
): Promise<InviteCreated> {
  const user = await deps.store.prisma.user.findUnique({ where: { id: input.userId } });
  if (!user) throw notFound("user");
  return issue(deps, { email: user.email, name: user.name, kind: "reset", createdBy: input.createdBy }, now);
}

async function issue(
  deps: Deps,
  link: { email: string; name: string | null; kind: InviteKind; createdBy: string },
  now: number,
): Promise<InviteCreated> {
  const token = newSecret(INVITE_TOKEN_PREFIX);
  const at = new Date(now).toISOString();
  // Older unused links for this email stop working: only the newest one counts.
  await deps.store.prisma.invite.updateMany({
    where: { email: link.email, usedAt: null },
    data: { usedAt: at },
  });
  const row = await deps.store.prisma.invite.create({
    data: {
      id: randomUUID(),
      ...link,
      tokenHash: hashSecret(token),
      createdAt: at,
      expiresAt: new Date(now + INVITE_LIFETIME_MS).toISOString(),
    },
  });
  const url = `${deps.config.publicUrl}/invite/${token}`;
  let mailed = false;
  if (deps.config.smtp) {
    try {
      await sendInviteMail(deps.config.smtp, {
        to: link.email,
        url,
        kind: link.kind,
        expiresAt: row.expiresAt,
      });
      mailed = true;
    } catch (e) {
      console.error(
        `podwatch: could not mail the ${link.kind} link (copy it instead):`,
        (e as Error).message,
      );
    }
  }
  const note = mailed
    ? "Mailed to the person; this link is also shown once here."
    : "This link is shown once; copy it and send it to the person.";
  return { ...inviteInfo(row), token, url, mailed, note };
}

export function inviteInfo(r: Omit<InviteInfo, "kind"> & { kind: string }): InviteInfo {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    kind: r.kind === "reset" ? "reset" : "invite",
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    usedAt: r.usedAt,
  };
}
