"use server";
import { headers } from "next/headers";
import { isSiteAdmin } from "../domain/access/policy";
import { appContext } from "../app-context";
import { currentIdentity } from "./current-identity";
import {
  addPersonCall,
  changePasswordCall,
  inviteCall,
  performAcceptInvite,
  removePersonCall,
  resetPasswordCall,
  setPersonAccessCall,
} from "./people-actions";
import { runSiteCall } from "./run-site-action";
import {
  addPushDeviceCall,
  readNotificationsCall,
  removePushDeviceCall,
  savePreferencesCall,
} from "./notify-actions";
import { setCanCreatePodsCall } from "./site-actions";
import { runPodCall } from "./run-action";
import { webhookOperations as webhooks } from "../webhooks/webhook-operations";
import { shareLinkOperations as shareLinks } from "../access/share-link-operations";
import { agentTokenOperations as agentTokens } from "../access/agent-token-operations";
import { podOperations as pods } from "../pods/pod-operations";
import { inboxOperations as inbox } from "../pods/inbox-operations";
import { actionOf } from "./operation-action";
import { setBudgetCall } from "./pod-actions";
import { steerOperations as steer } from "../pods/steer-operations";

// Budgets: an approver sets, raises or removes one (the domain checks again).
export async function setBudget(raw: unknown) {
  return runPodCall(setBudgetCall, raw);
}

// Site-level (site admins; the same guard as PATCH /api/v1/users/{id}).
export async function setCanCreatePods(raw: unknown) {
  return runSiteCall(setCanCreatePodsCall, raw);
}

// Operations the control room calls, from their tables (server/operations/): webhooks, for pod admins.
export const listWebhooks = actionOf(webhooks.listWebhooks);
export const createWebhook = actionOf(webhooks.createWebhook);
export const updateWebhook = actionOf(webhooks.updateWebhook);
export const deleteWebhook = actionOf(webhooks.deleteWebhook);
export const testWebhook = actionOf(webhooks.testWebhook);
export const listWebhookDeliveries = actionOf(webhooks.listWebhookDeliveries);
export const redeliverWebhook = actionOf(webhooks.redeliverWebhook);
// Share links (pod admins): a new link's secret is in this caller's result only.
export const createShareLink = actionOf(shareLinks.createShareLink);
export const listShareLinks = actionOf(shareLinks.listShareLinks);
export const revokeShareLink = actionOf(shareLinks.revokeShareLink);
// Agents and their tokens (pod admins): a new token is in this caller's result only, never stored or logged.
export const addAgent = actionOf(agentTokens.addAgent);
export const createAgentToken = actionOf(agentTokens.createAgentToken);
export const revokeAgentToken = actionOf(agentTokens.revokeAgentToken);
export const rotateAgentToken = actionOf(agentTokens.rotateAgentToken);
// Pods: creating one (site admins and people they allowed); archiving, starting, closing (pod admins); a notice read (pod admins).
export const createPod = actionOf(pods.createPod);
export const archivePod = actionOf(pods.archivePod);
export const startPod = actionOf(pods.startPod);
export const closePod = actionOf(pods.closePod);
export const unarchivePod = actionOf(pods.unarchivePod);
export const dismissNotice = actionOf(inbox.dismissNotice);
// A person's answers to the inbox (approvers): a verdict, an escalation's answer, a held tool call's.
export const decide = actionOf(inbox.decide);
export const answerEscalation = actionOf(inbox.answerEscalation);
export const answerToolApproval = actionOf(inbox.answerToolApproval);
// Steering (approvers; the tool policy: pod admins): appended as the person, the reducers check the rest.
export const setToolPolicy = actionOf(steer.setToolPolicy);
export const setPaused = actionOf(steer.setPaused);
export const assignRole = actionOf(steer.assignRole);
export const rotateRole = actionOf(steer.rotateRole);
export const handOff = actionOf(steer.handOff);
export const addTask = actionOf(steer.addTask);
export const splitTask = actionOf(steer.splitTask);

// People. Invites and resets (site admins; twins of POST /api/v1/invites and /users/{id}/reset): the link is in this caller's result only.
export async function invitePerson(raw: unknown) {
  return runSiteCall(inviteCall, raw);
}

export async function resetPassword(raw: unknown) {
  return runSiteCall(resetPasswordCall, raw);
}

/** The invite link's page: the token is the credential. The browser signs in with the new password after. */
export async function acceptInvite(raw: unknown) {
  return performAcceptInvite(appContext(), raw);
}

// A person's notifications, for themselves (twins of /api/v1/me/push… and /api/v1/me/preferences).
export async function readNotifications() {
  return runSiteCall(readNotificationsCall, {});
}

export async function addPushDevice(raw: unknown) {
  return runSiteCall(addPushDeviceCall((await headers()).get("user-agent") ?? undefined), raw);
}

export async function removePushDevice(raw: unknown) {
  return runSiteCall(removePushDeviceCall, raw);
}

export async function saveNotificationPreferences(raw: unknown) {
  return runSiteCall(savePreferencesCall, raw);
}

/** Anyone signed in, for themselves (Better Auth checks the current password and ends their other sessions). */
export async function changePassword(raw: unknown) {
  return runSiteCall(changePasswordCall(await headers()), raw);
}

// A person's pod access (pod admins; twins of POST/PATCH/DELETE /api/v1/pods/{id}/members…). Someone without an account
// cannot be added: a site admin is offered to invite them first.
export async function addPersonToPod(raw: unknown) {
  const r = await runPodCall(addPersonCall, raw);
  return r.ok || r.code !== "not_a_user" ? r : { ...r, canInvite: isSiteAdmin(await currentIdentity()) };
}

export async function setPersonAccess(raw: unknown) {
  return runPodCall(setPersonAccessCall, raw);
}

export async function removePersonFromPod(raw: unknown) {
  return runPodCall(removePersonCall, raw);
}
