// On the very first start there is nobody to sign in as: create a site admin
// with a one-time password and say how to sign in. Never logged again.
import { randomBytes } from "node:crypto";
import type { Auth } from "./create-auth";
import { countUsers, createUser } from "./create-user";

export async function bootstrapAdmin(auth: Auth, email: string): Promise<{ email: string; password: string } | null> {
  if ((await countUsers(auth)) > 0) return null;
  const password = randomBytes(12).toString("base64url");
  await createUser(auth, { email, name: "Administrator", password, isAdmin: true });
  return { email, password };
}
