// People are created by an admin (or on the very first start): Better Auth's
// own adapter writes the user and a credential account with its password hash.
import { z } from "zod";
import { conflict } from "../domain/errors";
import type { Auth } from "./create-auth";

export const ZCreateUserRequest = z.object({
  email: z.email().max(254).transform((e) => e.toLowerCase()),
  name: z.string().trim().min(1).max(200),
  password: z.string().min(10, "use at least 10 characters").max(200),
  isAdmin: z.boolean().default(false),
});
export type TCreateUserRequest = z.infer<typeof ZCreateUserRequest>;

export async function createUser(auth: Auth, input: TCreateUserRequest) {
  const ctx = await auth.$context;
  if (await ctx.internalAdapter.findUserByEmail(input.email)) throw conflict("user_exists", `a user with email ${input.email} already exists`);
  const user = await ctx.internalAdapter.createUser({ email: input.email, name: input.name, emailVerified: true, isAdmin: input.isAdmin }, { method: "admin" });
  await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: await ctx.password.hash(input.password) });
  return { id: user.id, email: user.email, name: user.name, isAdmin: input.isAdmin };
}

export async function countUsers(auth: Auth): Promise<number> {
  const ctx = await auth.$context;
  return ctx.adapter.count({ model: "user" });
}
