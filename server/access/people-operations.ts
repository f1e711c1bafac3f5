// The people who can sign in, managed by site admins: invites and password resets (one-time links,
// shown once), the people list, accounts made directly, and who may create pods; and a person's own
// password. Declared once: the REST routes, the control room's server actions and the reference
// come from this table.
import { z } from "zod";
import { personOf } from "../domain/access/policy";
import { defineOperation } from "../operations/operation";
import * as wire from "../wire/access";
import { changeOwnPassword } from "./change-password";
import { createInvite, createPasswordReset } from "./create-invite";
import { createUser } from "./create-user";
import { listPeople } from "./list-people";
import { setCanCreatePods } from "./set-can-create-pods";

const tag = "People";
const ZUserId = z.string().min(1).max(200);

export const peopleOperations = {
  invitePerson: defineOperation({
    name: "invitePerson",
    summary:
      "A one-time invite link (7 days) for someone new to choose their password, mailed when the server" +
      " mails; shown once (only its SHA-256 is stored). 409 `user_exists` or `invite_pending` store " +
      "nothing.",
    tag,
    input: wire.ZCreateInviteRequest,
    output: wire.ZInviteCreated,
    guard: "site-admin",
    http: { method: "POST", path: "/api/v1/invites", status: 201 },
    action: true,
    run: ({ app, actor }, a) => createInvite(app, { ...a, createdBy: actor }),
  }),
  listPeople: defineOperation({
    name: "listPeople",
    summary:
      "The people who can sign in (`isAdmin`, `canCreatePods`, `mustChangePassword`) and the unused, " +
      "unexpired invites (never their secrets).",
    tag,
    input: z.object({}),
    output: wire.ZPeopleResponse,
    guard: "site-admin",
    http: { method: "GET", path: "/api/v1/users", status: 200 },
    run: ({ app }) => listPeople(app.store),
  }),
  resetPassword: defineOperation({
    name: "resetPassword",
    summary:
      "A one-time reset link for a person, shown once: using it sets a new password and ends the " +
      "person's sessions (the old password works until then); an older unused link stops working.",
    tag,
    input: z.object({ userId: ZUserId }),
    output: wire.ZInviteCreated,
    guard: "site-admin",
    http: { method: "POST", path: "/api/v1/users/{userId}/reset", status: 201 },
    action: true,
    run: ({ app, actor }, a) => createPasswordReset(app, { userId: a.userId, createdBy: actor }),
  }),
  createUser: defineOperation({
    name: "createUser",
    summary:
      "Creates a person who can sign in, with a password (409 `user_exists`); never answers the " +
      "password.",
    tag,
    input: wire.ZCreateUserRequest,
    output: wire.ZUserInfo,
    guard: "site-admin",
    http: { method: "POST", path: "/api/v1/users", status: 201 },
    run: ({ app }, a) => createUser(app.access.auth, a),
  }),
  setCanCreatePods: defineOperation({
    name: "setCanCreatePods",
    summary: "Allows (or stops allowing) a person to create pods; it takes effect on their next request.",
    tag,
    input: wire.ZUpdateUserRequest.extend({ userId: ZUserId }),
    output: wire.ZUserPermissions,
    guard: "site-admin",
    http: { method: "PATCH", path: "/api/v1/users/{userId}", status: 200 },
    action: true,
    run: ({ app }, a) => setCanCreatePods(app.store, a.userId, a.canCreatePods),
  }),
  changePassword: defineOperation({
    name: "changePassword",
    summary:
      "A signed-in person changes their own password: Better Auth checks the current one with this " +
      "request's session and ends their other sessions.",
    tag,
    input: z
      .object({
        currentPassword: z.string().min(1, "enter your current password").max(200),
        newPassword: wire.ZNewPassword,
        confirm: z.string().max(200),
      })
      .refine((v) => v.newPassword === v.confirm, {
        path: ["confirm"],
        message: "the two new passwords differ",
      }),
    output: z.object({ changed: z.literal(true) }),
    guard: "person",
    action: true,
    run: ({ app, identity, request }, a) =>
      changeOwnPassword(app.access, {
        userId: personOf(identity).userId,
        headers: request.headers,
        currentPassword: a.currentPassword,
        newPassword: a.newPassword,
      }),
  }),
};
