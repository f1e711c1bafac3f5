// Members, agent tokens, share links and people, as the admin routes take and answer them.
import { z } from "zod";
import { ZMemberJoined } from "../domain/events/event-schemas";
import { ZId } from "../domain/events/seed-formats";
import type { Ack } from "./events";
import { ACCESS_LEVELS, ROLES } from "./vocabulary";

/** POST /api/v1/pods/{podId}/members. Access levels in `roles` (viewer/approver/admin) become the person's pod access. */
export const ZAddMemberRequest = z.object({
  memberId: ZId, // the event schema's one id rule: never a reserved name such as "__proto__"
  kind: ZMemberJoined.shape.body.shape.kind,
  displayName: z.string().trim().min(1).max(200),
  roles: z
    .array(z.enum([...ROLES, ...ACCESS_LEVELS]))
    .max(20)
    .default([]),
});
export type TAddMemberRequest = z.infer<typeof ZAddMemberRequest>;

/** What the tape answered for each event stored: its id, seq and hash. */
export const ZAck = z.object({
  id: z.string(),
  seq: z.number().int(),
  hash: z.string(),
}) satisfies z.ZodType<Ack>;
/** The member as added, with the events that added it. */
export const ZMemberAdded = z.object({
  memberId: z.string(),
  kind: ZMemberJoined.shape.body.shape.kind,
  displayName: z.string(),
  access: z.enum(ACCESS_LEVELS).nullable(),
  roles: z.array(z.enum(ROLES)),
  events: z.array(ZAck),
});
export type MemberAdded = z.infer<typeof ZMemberAdded>;

/** An agent token as listed: never the secret itself. */
export const ZAgentTokenInfo = z.object({
  id: z.string(),
  podId: z.string(),
  memberId: z.string(),
  label: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type AgentTokenInfo = z.infer<typeof ZAgentTokenInfo>;
/** A new token: the secret, shown this once. */
export const ZAgentTokenCreated = ZAgentTokenInfo.extend({ token: z.string(), note: z.string() });
export type AgentTokenCreated = z.infer<typeof ZAgentTokenCreated>;
export const ZAgentTokensResponse = z.object({ tokens: z.array(ZAgentTokenInfo) });
export type AgentTokensResponse = z.infer<typeof ZAgentTokensResponse>;
/** A rotation: the new token (shown this once) and the old one, revoked at the same moment. */
export const ZAgentTokenRotated = z.object({
  token: z.string(),
  info: ZAgentTokenInfo,
  revoked: ZAgentTokenInfo,
});
export type AgentTokenRotated = z.infer<typeof ZAgentTokenRotated>;
/** An agent added with its first token (the control room's Add agent). */
export const ZAgentAdded = z.object({ member: ZMemberAdded, token: z.string(), info: ZAgentTokenInfo });
export type AgentAdded = z.infer<typeof ZAgentAdded>;

/**
 * POST /api/v1/pods/{podId}/share-links (the body is optional): expires in `expiresInHours`
 * (default 7 days; `null` = never) or at `expiresAt` (a future time); an optional `label`.
 */
export const ZCreateShareLinkRequest = z
  .object({
    expiresInHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 366)
      .nullable()
      .optional(),
    expiresAt: z.iso.datetime({ offset: true, error: "expiresAt is an ISO-8601 time" }).optional(),
    label: z.string().trim().max(200, "keep the label under 200 characters").optional(),
  })
  .refine((r) => r.expiresAt === undefined || r.expiresInHours === undefined, {
    message: "give expiresInHours or expiresAt, not both",
    path: ["expiresAt"],
  })
  .refine((r) => r.expiresAt === undefined || Date.parse(r.expiresAt) > Date.now(), {
    message: "the expiry must be in the future",
    path: ["expiresAt"],
  })
  .default({});
export type TCreateShareLinkRequest = z.infer<typeof ZCreateShareLinkRequest>;
/** What "never expires" is stored as (the column is a time; this one never comes). */
export const SHARE_LINK_NEVER = "9999-12-31T23:59:59.999Z";

/** A share link as listed: never the secret itself. */
export const ZShareLinkInfo = z.object({
  id: z.string(),
  podId: z.string(),
  label: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
  expiresAt: z.string().describe(`${SHARE_LINK_NEVER} for a link that does not expire`),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ShareLinkInfo = z.infer<typeof ZShareLinkInfo>;
/** A new share link: its secret and the URL that carries it, shown this once. */
export const ZShareLinkCreated = ZShareLinkInfo.extend({ token: z.string(), url: z.string() });
export type ShareLinkCreated = z.infer<typeof ZShareLinkCreated>;
export const ZShareLinksResponse = z.object({ links: z.array(ZShareLinkInfo) });
export type ShareLinksResponse = z.infer<typeof ZShareLinksResponse>;

/** POST /api/v1/users (site admins). */
export const ZCreateUserRequest = z.object({
  email: z
    .email()
    .max(254)
    .transform((e) => e.toLowerCase()),
  name: z.string().trim().min(1).max(200),
  password: z.string().min(10, "use at least 10 characters").max(200),
  isAdmin: z.boolean().default(false),
});
export type TCreateUserRequest = z.infer<typeof ZCreateUserRequest>;

/** A person as created: never the password. */
export const ZUserInfo = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  isAdmin: z.boolean(),
});
export type UserInfo = z.infer<typeof ZUserInfo>;

/** PATCH /api/v1/users/{id} (site admins): whether the person may create pods. */
export const ZUpdateUserRequest = z.object({ canCreatePods: z.boolean() });
/** A person with what a site admin allowed them. */
export const ZUserPermissions = ZUserInfo.extend({ canCreatePods: z.boolean() });
export type UserPermissions = z.infer<typeof ZUserPermissions>;

// --- people: invites, password resets, the people list, a person's pod access ---

const ZEmail = z
  .email("enter an email address like ana@example.com")
  .max(254)
  .transform((e) => e.toLowerCase());
/** Chosen on an invite or reset link, and on /account: at least 12 characters. */
export const ZNewPassword = z
  .string()
  .min(12, "use at least 12 characters")
  .max(200, "use at most 200 characters");

/** POST /api/v1/invites (site admins): a one-time link for a person to choose their password. */
export const ZCreateInviteRequest = z.object({
  email: ZEmail,
  name: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((n) => n || undefined),
});
export type TCreateInviteRequest = z.infer<typeof ZCreateInviteRequest>;

const ZInviteKind = z.enum(["invite", "reset"]);
export type InviteKind = z.infer<typeof ZInviteKind>;
/** An invite or reset link as listed: never the secret itself. */
export const ZInviteInfo = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  kind: ZInviteKind,
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().nullable(),
});
export type InviteInfo = z.infer<typeof ZInviteInfo>;
/** A new link, shown this once; `mailed` when it was also sent by SMTP. */
export const ZInviteCreated = ZInviteInfo.extend({
  token: z.string(),
  url: z.string(),
  mailed: z.boolean(),
  note: z.string(),
});
export type InviteCreated = z.infer<typeof ZInviteCreated>;

/** A person as the People page and GET /api/v1/users list them. */
export const ZPersonInfo = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  isAdmin: z.boolean(),
  canCreatePods: z.boolean(),
  mustChangePassword: z.boolean(),
  createdAt: z.string(),
});
export type PersonInfo = z.infer<typeof ZPersonInfo>;
/** GET /api/v1/users: the people, and the invites still waiting to be used. */
export const ZPeopleResponse = z.object({
  users: z.array(ZPersonInfo),
  pendingInvites: z.array(ZInviteInfo),
});
export type PeopleResponse = z.infer<typeof ZPeopleResponse>;

/** What an invite link shows before it is used (the page says which). */
export type InviteLookup =
  | { state: "open"; email: string; name: string | null; kind: InviteKind }
  | { state: "expired" | "used" | "unknown" };

/** The invite page's form (also its server action's input): the token from the link and the password, twice. */
export const ZAcceptInviteRequest = z
  .object({ token: z.string().min(1).max(200), password: ZNewPassword, confirm: z.string().max(200) })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "the two passwords differ" });
export const ZInviteAccepted = z.object({ email: z.string(), kind: ZInviteKind });
export type InviteAccepted = z.infer<typeof ZInviteAccepted>;

/** PATCH /api/v1/pods/{podId}/members/{memberId} (a person's access). */
export const ZChangeAccessRequest = z.object({
  access: z.enum(ACCESS_LEVELS, { error: `access is one of ${ACCESS_LEVELS.join(", ")}` }),
});
/** A person's access after a change (null: removed from the pod), with the events that recorded it. */
export const ZAccessChanged = z.object({
  memberId: z.string(),
  access: z.enum(ACCESS_LEVELS).nullable(),
  events: z.array(ZAck),
});
export type AccessChanged = z.infer<typeof ZAccessChanged>;
