// A signed-in person changes their own password through Better Auth (which checks
// the current one and ends their other sessions); the first-start admin's
// "choose your own password" flag is cleared with it.
import { APIError } from "better-auth/api";
import type { TapeStore } from "../db/tape-store";
import { AppError } from "../domain/errors";
import type { Auth } from "./create-auth";

export async function changeOwnPassword(
  deps: { auth: Auth; store: TapeStore },
  input: { userId: string; headers: Headers; currentPassword: string; newPassword: string },
): Promise<{ changed: true }> {
  try {
    await deps.auth.api.changePassword({
      headers: input.headers,
      body: {
        currentPassword: input.currentPassword,
        newPassword: input.newPassword,
        revokeOtherSessions: true,
      },
    });
  } catch (e) {
    // Next bundles its own copy of better-auth: recognise its APIError by shape, not by class.
    const body = (e as { body?: { code?: string; message?: string } } | null)?.body;
    if (
      (e instanceof APIError || (e as Error)?.name === "APIError") &&
      /password/i.test(String(body?.code ?? (e as Error).message))
    ) {
      throw new AppError(
        400,
        "wrong_password",
        body?.code === "INVALID_PASSWORD"
          ? "your current password is not right"
          : (body?.message ?? "that password cannot be used"),
      );
    }
    throw e;
  }
  await deps.store.prisma.user.update({ where: { id: input.userId }, data: { mustChangePassword: false } });
  return { changed: true };
}
