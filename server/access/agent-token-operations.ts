// Agents and their tokens, managed by the pod's admins: a token is shown once (its hash is
// kept), listed with when it was last used, rotated or revoked (its live sockets end at once).
// Declared once: the REST routes, the control room's server actions and the reference come
// from this table.
import { z } from "zod";
import { ZId } from "../domain/events/seed-formats";
import { defineOperation, ZPodId } from "../operations/operation";
import * as wire from "../wire/access";
import { ROLES } from "../wire/vocabulary";
import { addAgent } from "./add-agent";
import { createAgentToken, listAgentTokens, revokeAgentToken } from "./agent-tokens";
import { rotateAgentToken } from "./rotate-agent-token";

const ADMIN = { pod: "admin" } as const;
const tag = "Agent tokens";
const ZTokenId = z.string().min(1).max(100);
const ZTokenLabel = z.string().trim().max(200, "keep the label under 200 characters").optional();
const ZRoles = z
  .array(
    z.enum(ROLES, { error: (i) => `unknown role ${JSON.stringify(i.input)}; roles are ${ROLES.join(", ")}` }),
  )
  .max(20);

export const agentTokenOperations = {
  addAgent: defineOperation({
    name: "addAgent",
    summary:
      "Adds an agent member and creates its first token in one step; refused, it leaves nothing behind.",
    tag,
    input: z.object({
      podId: ZPodId,
      memberId: ZId,
      displayName: z.string().trim().min(1, "give the agent a name").max(200),
      roles: ZRoles.default([]),
      label: ZTokenLabel,
    }),
    output: wire.ZAgentAdded,
    guard: ADMIN,
    action: true,
    run: ({ app, identity }, a) => addAgent(app.store, app.append, { ...a, as: identity }),
  }),
  createAgentToken: defineOperation({
    name: "createAgentToken",
    summary:
      "A token for an agent member (not a person: 422 `tokens_for_agents`); the secret is in this answer only. The body may be left out.",
    tag,
    input: z.object({ podId: ZPodId, memberId: ZId, label: ZTokenLabel }),
    output: wire.ZAgentTokenCreated,
    guard: ADMIN,
    http: { method: "POST", path: "/api/v1/pods/{podId}/members/{memberId}/tokens", status: 201 },
    action: true,
    run: async ({ app, actor }, a) => {
      const { token, info } = await createAgentToken(app.store, {
        podId: a.podId,
        memberId: a.memberId,
        label: a.label || undefined,
        createdBy: actor,
      });
      return { token, ...info, note: "This token is shown once; store it now." };
    },
  }),
  listAgentTokens: defineOperation({
    name: "listAgentTokens",
    summary: "The pod's agent tokens, oldest first, with when each was last used; never the secrets.",
    tag,
    input: z.object({ podId: ZPodId }),
    output: wire.ZAgentTokensResponse,
    guard: ADMIN,
    http: { method: "GET", path: "/api/v1/pods/{podId}/tokens", status: 200 },
    run: async ({ app }, a) => ({ tokens: await listAgentTokens(app.store, a.podId) }),
  }),
  revokeAgentToken: defineOperation({
    name: "revokeAgentToken",
    summary: "Revokes a token at once: it is refused from now on, on every node, and its live sockets end.",
    tag,
    input: z.object({ podId: ZPodId, tokenId: ZTokenId }),
    output: wire.ZAgentTokenInfo,
    guard: ADMIN,
    http: { method: "DELETE", path: "/api/v1/pods/{podId}/tokens/{tokenId}", status: 200 },
    action: true,
    run: ({ app }, a) => revokeAgentToken(app.store, app.bus, a.podId, a.tokenId),
  }),
  rotateAgentToken: defineOperation({
    name: "rotateAgentToken",
    summary:
      "A new token for the same member (shown once) and the old one revoked at the same moment; 409 `token_revoked` for a revoked one.",
    tag,
    input: z.object({ podId: ZPodId, tokenId: ZTokenId }),
    output: wire.ZAgentTokenRotated,
    guard: ADMIN,
    http: { method: "POST", path: "/api/v1/pods/{podId}/tokens/{tokenId}/rotate", status: 201 },
    action: true,
    run: ({ app, actor }, a) =>
      rotateAgentToken(app.store, app.bus, { podId: a.podId, tokenId: a.tokenId, rotatedBy: actor }),
  }),
};
