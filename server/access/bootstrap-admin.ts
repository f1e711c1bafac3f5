// On the very first start there is nobody to sign in as: create a site admin
// with a one-time password and say how to sign in. Never logged again. The
// admin is asked (a banner on every page) to choose their own password.
import { randomBytes } from "node:crypto";
import type { AccessContext } from "./access-context";
import { countUsers, createUser } from "./create-user";

export async function bootstrapAdmin(access: Pick<AccessContext, "auth" | "store">, email: string): Promise<{ email: string; password: string } | null> {
  if ((await countUsers(access.auth)) > 0) return null;
  const password = randomBytes(12).toString("base64url");
  const user = await createUser(access.auth, { email, name: "Administrator", password, isAdmin: true });
  await access.store.prisma.user.update({ where: { id: user.id }, data: { mustChangePassword: true } });
  return { email, password };
}
