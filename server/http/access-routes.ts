// Members and people: managed by admins (agent tokens and share links: server/access/*-operations.ts).
import { addMember } from "../access/add-member";
import { createUser } from "../access/create-user";
import { setCanCreatePods } from "../access/set-can-create-pods";
import { ZUpdateUserRequest } from "../wire/access";
import { ZAddMemberRequest, ZCreateUserRequest } from "../wire/access";
import { parseWith, readJsonBody, sendJson } from "./json";
import type { Route } from "./route";

export const accessRoutes: Route[] = [
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/members$/,
    guard: { pod: "admin" },
    run: async ({ app, req, res, params, identity }) => {
      const input = parseWith(ZAddMemberRequest, await readJsonBody(req));
      sendJson(res, 201, await addMember(app.append, params[0]!, identity, input));
    },
  },
  {
    method: "POST",
    path: /^\/api\/v1\/users$/,
    guard: "site-admin",
    run: async ({ app, req, res }) =>
      sendJson(
        res,
        201,
        await createUser(app.access.auth, parseWith(ZCreateUserRequest, await readJsonBody(req))),
      ),
  },
  {
    method: "PATCH",
    path: /^\/api\/v1\/users\/([^/]+)$/,
    guard: "site-admin",
    run: async ({ app, req, res, params }) => {
      const input = parseWith(ZUpdateUserRequest, await readJsonBody(req));
      sendJson(res, 200, await setCanCreatePods(app.store, params[0]!, input.canCreatePods));
    },
  },
];
