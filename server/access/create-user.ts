// People are created by an admin (or on the very first start): Better Auth's
// own adapter writes the user and a credential account with its password hash.
import { conflict } from "../domain/errors";
import type { TCreateUserRequest, UserInfo } from "../wire/access";
import type { Auth } from "./create-auth";

export async function createUser(auth: Auth, input: TCreateUserRequest): Promise<UserInfo> {
  const ctx = await auth.$context;
  if (await ctx.internalAdapter.findUserByEmail(input.email))
    throw conflict("user_exists", `a user with email ${input.email} already exists`);
  const user = await ctx.internalAdapter.createUser(
    { email: input.email, name: input.name, emailVerified: true, isAdmin: input.isAdmin },
    { method: "admin" },
  );
  await ctx.internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: await ctx.password.hash(input.password),
  });
  return { id: user.id, email: user.email, name: user.name, isAdmin: input.isAdmin };
}

export async function countUsers(auth: Auth): Promise<number> {
  const ctx = await auth.$context;
  return ctx.adapter.count({ model: "user" });
}
