// A site admin allows (or stops allowing) a person to create pods. The flag is
// read with the person's session on each request, so it takes effect at once.
import type { TapeStore } from "../db/tape-store";
import { notFound } from "../domain/errors";
import type { UserPermissions } from "../wire/access";

export async function setCanCreatePods(
  store: TapeStore,
  userId: string,
  canCreatePods: boolean,
): Promise<UserPermissions> {
  const found = await store.prisma.user.findUnique({ where: { id: userId } });
  if (!found) throw notFound("user");
  const u = await store.prisma.user.update({ where: { id: userId }, data: { canCreatePods } });
  return { id: u.id, email: u.email, name: u.name, isAdmin: u.isAdmin, canCreatePods: u.canCreatePods };
}
