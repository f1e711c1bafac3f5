// People: invites and password resets (site admins), the people list, and a
// person's access to a pod (pod admins). The control room's server actions are
// the twins of these routes, authorized by the same policy.
import { createInvite, createPasswordReset } from "../access/create-invite";
import { listPeople } from "../access/list-people";
import { changeMemberAccess, removeMember } from "../access/change-member-access";
import {
  ZChangeAccessRequest,
  ZCreateInviteRequest,
  type AccessChanged,
  type InviteCreated,
  type PeopleResponse,
} from "../wire/access";
import { parseWith, readJsonBody, sendJson } from "./json";
import { adminActor, type Route } from "./route";

/** How an admin appears on the tape and on the links they make. */

export const peopleRoutes: Route[] = [
  {
    method: "POST",
    path: /^\/api\/v1\/invites$/,
    guard: "site-admin",
    run: async ({ app, req, res, identity }) => {
      const input = parseWith(ZCreateInviteRequest, await readJsonBody(req));
      sendJson(
        res,
        201,
        (await createInvite(app, { ...input, createdBy: adminActor(identity) })) satisfies InviteCreated,
      );
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/users$/,
    guard: "site-admin",
    run: async ({ app, res }) => sendJson(res, 200, (await listPeople(app.store)) satisfies PeopleResponse),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/users\/([^/]+)\/reset$/,
    guard: "site-admin",
    run: async ({ app, res, params, identity }) =>
      sendJson(
        res,
        201,
        (await createPasswordReset(app, {
          userId: params[0]!,
          createdBy: adminActor(identity),
        })) satisfies InviteCreated,
      ),
  },
  {
    method: "PATCH",
    path: /^\/api\/v1\/pods\/([^/]+)\/members\/([^/]+)$/,
    guard: { pod: "admin" },
    run: async ({ app, req, res, params, identity }) => {
      const input = parseWith(ZChangeAccessRequest, await readJsonBody(req));
      sendJson(
        res,
        200,
        (await changeMemberAccess(
          app,
          params[0]!,
          identity,
          params[1]!,
          input.access,
        )) satisfies AccessChanged,
      );
    },
  },
  {
    method: "DELETE",
    path: /^\/api\/v1\/pods\/([^/]+)\/members\/([^/]+)$/,
    guard: { pod: "admin" },
    run: async ({ app, res, params, identity }) =>
      sendJson(res, 200, (await removeMember(app, params[0]!, identity, params[1]!)) satisfies AccessChanged),
  },
];
