// A pod's members, managed by its admins: adding one (an agent or a person), and a person's access
// (access.granted, access.revoked). Each is an event on the tape; the write path refuses what breaks
// a rule (the last admin, a reserved name). Declared once: the REST routes, the control room's
// server actions and the reference come from this table.
import { z } from "zod";
import { isSiteAdmin } from "../domain/access/policy";
import { AppError } from "../domain/errors";
import { defineOperation, ZPodId } from "../operations/operation";
import * as wire from "../wire/access";
import { addMember } from "./add-member";
import { addPerson, changeMemberAccess, removeMember } from "./change-member-access";

const ADMIN = { pod: "admin" } as const;
const tag = "Members";
const ZMemberId = z.string().min(1).max(200);
const ZAccess = wire.ZChangeAccessRequest.shape.access;

export const memberOperations = {
  addMember: defineOperation({
    name: "addMember",
    summary:
      "`member.joined`, then `role.assigned` for each protocol role. For a person (`kind: human`, " +
      "`memberId` their email) `roles` may hold their pod access: `viewer`, `approver` or `admin`.",
    tag,
    input: wire.ZAddMemberRequest.extend({ podId: ZPodId }),
    output: wire.ZMemberAdded,
    guard: ADMIN,
    http: { method: "POST", path: "/api/v1/pods/{podId}/members", status: 201 },
    run: ({ app, identity }, { podId, ...member }) => addMember(app.append, podId, identity, member),
  }),
  addPersonToPod: defineOperation({
    name: "addPersonToPod",
    summary:
      "Adds a person who has an account, by email, with an access level. Someone without one is refused: " +
      "`invite_first` for a site admin (who may invite them), else `not_a_user`.",
    tag,
    input: z.object({
      podId: ZPodId,
      email: z.string().trim().min(1, "enter the person's email").max(254),
      access: ZAccess,
    }),
    output: wire.ZMemberAdded,
    guard: ADMIN,
    action: true,
    run: async ({ app, identity }, a) => {
      try {
        return await addPerson(app, a.podId, identity, a);
      } catch (e) {
        // A site admin invites people themselves: the control room offers the invite beside this.
        if (e instanceof AppError && e.code === "not_a_user" && isSiteAdmin(identity))
          throw new AppError(
            e.status,
            "invite_first",
            `there is no account for ${a.email.trim().toLowerCase()} yet`,
          );
        throw e;
      }
    },
  }),
  setPersonAccess: defineOperation({
    name: "setPersonAccess",
    summary:
      "A person's access to the pod: `access.granted` (nothing when it is already so); 409 `last_admin`" +
      " for the pod's only admin, 422 `access_for_humans` for an agent.",
    tag,
    input: z.object({ podId: ZPodId, memberId: ZMemberId, access: ZAccess }),
    output: wire.ZAccessChanged,
    guard: ADMIN,
    http: { method: "PATCH", path: "/api/v1/pods/{podId}/members/{memberId}", status: 200 },
    action: true,
    run: ({ app, identity }, a) => changeMemberAccess(app, a.podId, identity, a.memberId, a.access),
  }),
  removePersonFromPod: defineOperation({
    name: "removePersonFromPod",
    summary:
      "Removes a person (`access.revoked`): they no longer see the pod (adding them again is a new " +
      "`member.joined`); 409 `last_admin` for the pod's only admin, 422 for an agent.",
    tag,
    input: z.object({ podId: ZPodId, memberId: ZMemberId }),
    output: wire.ZAccessChanged,
    guard: ADMIN,
    http: { method: "DELETE", path: "/api/v1/pods/{podId}/members/{memberId}", status: 200 },
    action: true,
    run: ({ app, identity }, a) => removeMember(app, a.podId, identity, a.memberId),
  }),
};
