// A signed-in person changes their own password through Better Auth (which checks
// the current one and ends their other sessions); the first-start admin's
// "choose your own password" flag is cleared with it.
import { APIError } from "better-auth/api";
import type { TapeStore } from "../db/tape-store";
import { AppError } from "../domain/errors";
import type { Auth } from "./create-auth";

export async function changeOwnPassword(deps: { auth: Auth; store: TapeStore }, input: { userId: string; headers: Headers; currentPassword: string; newPassword: string }): Promise<{ changed: true }> {
  try {
    await deps.auth.api.changePassword({ headers: input.headers, body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: true } });
  } catch (e) {
    if (e instanceof APIError && /password/i.test(String(e.body?.code ?? e.message))) {
      throw new AppError(400, "wrong_password", e.body?.code === "INVALID_PASSWORD" ? "your current password is not right" : (e.body?.message ?? "that password cannot be used"));
    }
    throw e;
  }
  await deps.store.prisma.user.update({ where: { id: input.userId }, data: { mustChangePassword: false } });
  return { changed: true };
}
