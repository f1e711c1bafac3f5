// The first-start admin signs in with a printed password; until they choose their
// own, every page says so (a banner, not a wall).
import type { AppContext } from "../app-context";
import type { Identity } from "../domain/access/policy";

export async function mustChangePassword(app: AppContext | null, who: Identity): Promise<boolean> {
  if (!app || who.kind !== "user") return false;
  const user = await app.store.prisma.user.findUnique({ where: { id: who.userId }, select: { mustChangePassword: true } });
  return user?.mustChangePassword ?? false;
}
