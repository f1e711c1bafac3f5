// The people who can sign in, and the invites still waiting to be used (site admins).
import type { TapeStore } from "../db/tape-store";
import type { PeopleResponse } from "../wire/access";
import { inviteInfo } from "./create-invite";

export async function listPeople(store: TapeStore, now = Date.now()): Promise<PeopleResponse> {
  const [users, invites] = await Promise.all([
    store.prisma.user.findMany({ orderBy: { email: "asc" } }),
    store.prisma.invite.findMany({
      where: { kind: "invite", usedAt: null, expiresAt: { gt: new Date(now).toISOString() } },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  return {
    users: users.map((u) => ({
      id: u.id,
      email: u.email,
      name: u.name,
      isAdmin: u.isAdmin,
      canCreatePods: u.canCreatePods,
      mustChangePassword: u.mustChangePassword,
      createdAt: u.createdAt.toISOString(),
    })),
    pendingInvites: invites.map(inviteInfo),
  };
}
