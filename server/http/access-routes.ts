// Members, agent tokens and people: managed by admins (share links: server/access/share-link-operations.ts).
import { addMember } from "../access/add-member";
import { createAgentToken, listAgentTokens, revokeAgentToken } from "../access/agent-tokens";
import { rotateAgentToken } from "../access/rotate-agent-token";
import { createUser } from "../access/create-user";
import { setCanCreatePods } from "../access/set-can-create-pods";
import { ZUpdateUserRequest } from "../wire/access";
import { ZAddMemberRequest, ZCreateAgentTokenRequest, ZCreateUserRequest, type AgentTokenCreated, type AgentTokenRotated, type AgentTokensResponse } from "../wire/access";
import { parseWith, readJsonBody, sendJson } from "./json";
import { adminActor, type Route } from "./route";

const optionalBody = async (req: import("node:http").IncomingMessage) => (Number(req.headers["content-length"] ?? 0) > 0 ? readJsonBody(req) : undefined);

export const accessRoutes: Route[] = [
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/members$/,
    guard: { pod: "admin" },
    run: async ({ app, req, res, params, identity }) => {
      const input = parseWith(ZAddMemberRequest, await readJsonBody(req));
      sendJson(res, 201, await addMember(app.append, params[0]!, adminActor(identity), input));
    },
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/members\/([^/]+)\/tokens$/,
    guard: { pod: "admin" },
    run: async ({ app, req, res, params, identity }) => {
      const input = parseWith(ZCreateAgentTokenRequest, await optionalBody(req));
      const { token, info } = await createAgentToken(app.store, { podId: params[0]!, memberId: params[1]!, label: input.label, createdBy: adminActor(identity) });
      sendJson(res, 201, { token, ...info, note: "This token is shown once; store it now." } satisfies AgentTokenCreated);
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)\/tokens$/,
    guard: { pod: "admin" },
    run: async ({ app, res, params }) => sendJson(res, 200, { tokens: await listAgentTokens(app.store, params[0]!) } satisfies AgentTokensResponse),
  },
  {
    method: "DELETE",
    path: /^\/api\/v1\/pods\/([^/]+)\/tokens\/([^/]+)$/,
    guard: { pod: "admin" },
    run: async ({ app, res, params }) => sendJson(res, 200, await revokeAgentToken(app.store, app.bus, params[0]!, params[1]!)),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/tokens\/([^/]+)\/rotate$/,
    guard: { pod: "admin" },
    run: async ({ app, res, params, identity }) =>
      sendJson(res, 201, (await rotateAgentToken(app.store, app.bus, { podId: params[0]!, tokenId: params[1]!, rotatedBy: adminActor(identity) })) satisfies AgentTokenRotated),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/users$/,
    guard: "site-admin",
    run: async ({ app, req, res }) => sendJson(res, 201, await createUser(app.access.auth, parseWith(ZCreateUserRequest, await readJsonBody(req)))),
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
