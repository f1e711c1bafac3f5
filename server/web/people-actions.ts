// The control room's people actions, declared once: invites and resets (site
// admins, as POST /api/v1/invites and /users/{id}/reset), one's own password
// (any signed-in person), and a person's pod access (pod admins, as
// POST/PATCH/DELETE /api/v1/pods/{id}/members…). Same schemas, same policy.
import type { AppContext } from "../app-context";
import { requireAuthenticated, requireSiteAdmin } from "../domain/access/policy";
import { AppError } from "../domain/errors";
import { acceptInvite } from "../access/accept-invite";
import { addPerson, changeMemberAccess, removeMember } from "../access/change-member-access";
import { changeOwnPassword } from "../access/change-password";
import { createInvite, createPasswordReset } from "../access/create-invite";
import { ZAcceptInviteRequest, ZCreateInviteRequest, type InviteAccepted } from "../wire/access";
import {
  ZAddPersonInput,
  ZChangePasswordInput,
  ZRemovePersonInput,
  ZResetPasswordInput,
  ZSetPersonAccessInput,
  type CallResult,
} from "../wire/actions";
import { definePodCall } from "../pods/perform-pod-action";
import { defineSiteCall } from "./run-site-action";

/** Twin of POST /api/v1/invites. */
export const inviteCall = defineSiteCall({
  schema: ZCreateInviteRequest,
  guard: requireSiteAdmin,
  run: (app, a, person) => createInvite(app, { ...a, createdBy: person.email }),
});

/** Twin of POST /api/v1/users/{id}/reset. */
export const resetPasswordCall = defineSiteCall({
  schema: ZResetPasswordInput,
  guard: requireSiteAdmin,
  run: (app, a, person) => createPasswordReset(app, { userId: a.userId, createdBy: person.email }),
});

/** Better Auth's change-password, with the request's headers (its session cookie). */
export const changePasswordCall = (headers: Headers) =>
  defineSiteCall({
    schema: ZChangePasswordInput,
    guard: requireAuthenticated,
    run: (app, a, person) =>
      changeOwnPassword(app.access, {
        userId: person.userId,
        headers,
        currentPassword: a.currentPassword,
        newPassword: a.newPassword,
      }),
  });

/** Twin of POST /api/v1/pods/{id}/members for a person (kind human, memberId = email, their access in roles). */
export const addPersonCall = definePodCall({
  schema: ZAddPersonInput,
  need: "admin" as const,
  run: (app, a, _actor, as) => addPerson(app, a.podId, as, a),
});

/** Twin of PATCH /api/v1/pods/{id}/members/{memberId}. */
export const setPersonAccessCall = definePodCall({
  schema: ZSetPersonAccessInput,
  need: "admin" as const,
  run: (app, a, _actor, as) => changeMemberAccess(app, a.podId, as, a.memberId, a.access),
});

/** Twin of DELETE /api/v1/pods/{id}/members/{memberId}. */
export const removePersonCall = definePodCall({
  schema: ZRemovePersonInput,
  need: "admin" as const,
  run: (app, a, _actor, as) => removeMember(app, a.podId, as, a.memberId),
});

/** The invite page: anyone holding the link (it is the credential). */
export async function performAcceptInvite(
  app: AppContext,
  raw: unknown,
): Promise<CallResult<InviteAccepted>> {
  const parsed = ZAcceptInviteRequest.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      code: "invalid_request",
      error: parsed.error.issues.map((i) => i.message).join("; "),
    };
  try {
    return { ok: true, value: await acceptInvite(app.access, parsed.data) };
  } catch (e) {
    if (e instanceof AppError) return { ok: false, code: e.code, error: e.message };
    console.error("podwatch: accepting an invite failed", (e as Error).message);
    return {
      ok: false,
      code: "internal",
      error: "something went wrong; nothing was changed — try the link again",
    };
  }
}
