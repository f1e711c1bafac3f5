// A person opens their invite or reset link and chooses a password. The link is
// claimed first (one conditional update, so two tabs cannot both use it), then
// the account is created or its password replaced through Better Auth's own
// adapter; if that fails, the claim is released and nothing is half-done.
import type { TapeStore } from "../db/tape-store";
import { AppError, conflict } from "../domain/errors";
import type { InviteAccepted, InviteLookup } from "../wire/access";
import type { Auth } from "./create-auth";
import { INVITE_TOKEN_PREFIX, hashSecret } from "./secrets";

export async function lookUpInvite(store: TapeStore, token: string, now = Date.now()): Promise<InviteLookup> {
  const row = token.startsWith(INVITE_TOKEN_PREFIX)
    ? await store.prisma.invite.findUnique({ where: { tokenHash: hashSecret(token) } })
    : null;
  if (!row) return { state: "unknown" };
  if (row.usedAt) return { state: "used" };
  if (row.expiresAt <= new Date(now).toISOString()) return { state: "expired" };
  return { state: "open", email: row.email, name: row.name, kind: row.kind === "reset" ? "reset" : "invite" };
}

const refusal: Record<"expired" | "used" | "unknown", AppError> = {
  unknown: new AppError(404, "invite_unknown", "this link is not valid: ask an administrator for a new one"),
  used: conflict("invite_used", "this link was already used: sign in, or ask an administrator for a new one"),
  expired: new AppError(410, "invite_expired", "this link has expired: ask an administrator for a new one"),
};

export async function acceptInvite(
  deps: { store: TapeStore; auth: Auth },
  input: { token: string; password: string },
  now = Date.now(),
): Promise<InviteAccepted> {
  const { store, auth } = deps;
  const found = await lookUpInvite(store, input.token, now);
  if (found.state !== "open") throw refusal[found.state];
  const at = new Date(now).toISOString();
  const claimed = await store.prisma.invite.updateMany({
    where: { tokenHash: hashSecret(input.token), usedAt: null, expiresAt: { gt: at } },
    data: { usedAt: at },
  });
  if (claimed.count !== 1) throw refusal.used;
  try {
    const ctx = await auth.$context;
    const hash = await ctx.password.hash(input.password);
    const existing = await ctx.internalAdapter.findUserByEmail(found.email, { includeAccounts: true });
    if (found.kind === "invite") {
      if (existing) throw conflict("user_exists", `${found.email} already has an account: sign in instead`);
      const user = await ctx.internalAdapter.createUser(
        {
          email: found.email,
          name: found.name ?? found.email.split("@")[0]!,
          emailVerified: true,
          isAdmin: false,
        },
        { method: "invite" },
      );
      await ctx.internalAdapter.linkAccount({
        userId: user.id,
        providerId: "credential",
        accountId: user.id,
        password: hash,
      });
    } else {
      if (!existing) throw refusal.unknown;
      if (existing.accounts.some((a) => a.providerId === "credential"))
        await ctx.internalAdapter.updatePassword(existing.user.id, hash);
      else
        await ctx.internalAdapter.linkAccount({
          userId: existing.user.id,
          providerId: "credential",
          accountId: existing.user.id,
          password: hash,
        });
      // A reset ends every session the person had: whoever knew the old password is out.
      await ctx.internalAdapter.deleteUserSessions(existing.user.id);
      await store.prisma.user.update({
        where: { id: existing.user.id },
        data: { mustChangePassword: false },
      });
    }
  } catch (e) {
    await store.prisma.invite.updateMany({
      where: { tokenHash: hashSecret(input.token), usedAt: at },
      data: { usedAt: null },
    });
    throw e;
  }
  return { email: found.email, kind: found.kind };
}
