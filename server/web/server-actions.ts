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
import { createPodCall, setCanCreatePodsCall } from "./site-actions";
import { closePodAction, setArchivedCall, startPodAction } from "./pod-life-actions";
import { runPodAction, runPodCall } from "./run-action";
import { webhookOperations as webhooks } from "../webhooks/webhook-operations";
import { shareLinkOperations as shareLinks } from "../access/share-link-operations";
import { agentTokenOperations as agentTokens } from "../access/agent-token-operations";
import { budgetOperations as budgets } from "../budgets/budget-operations";
import { actionOf } from "./operation-action";
import { answerEscalationAction, answerToolApprovalAction, decideAction } from "../pods/inbox-answer-actions";
import { setToolPolicyAction } from "./pod-actions";
import {
  addTaskAction,
  assignRoleAction,
  dismissNoticeAction,
  handOffAction,
  rotateRoleAction,
  setPausedAction,
  splitTaskAction,
} from "./pod-actions";

// Decisions and answers from the control room. Each goes through
// runPodAction: authenticated, parsed, checked on the server, then appended
// to the tape as the signed-in person (the domain checks the rest).
export async function decide(raw: unknown) {
  return runPodAction(decideAction, raw);
}

export async function answerEscalation(raw: unknown) {
  return runPodAction(answerEscalationAction, raw);
}

// Gated tools: a pod admin sets a tool policy; an approver answers a held call.
export async function setToolPolicy(raw: unknown) {
  return runPodAction(setToolPolicyAction, raw);
}

export async function answerToolApproval(raw: unknown) {
  return runPodAction(answerToolApprovalAction, raw);
}

export async function dismissNotice(raw: unknown) {
  return runPodAction(dismissNoticeAction, raw);
}

export async function setPaused(raw: unknown) {
  return runPodAction(setPausedAction, raw);
}

export async function assignRole(raw: unknown) {
  return runPodAction(assignRoleAction, raw);
}

export async function rotateRole(raw: unknown) {
  return runPodAction(rotateRoleAction, raw);
}

export async function handOff(raw: unknown) {
  return runPodAction(handOffAction, raw);
}

export async function addTask(raw: unknown) {
  return runPodAction(addTaskAction, raw);
}

export async function splitTask(raw: unknown) {
  return runPodAction(splitTaskAction, raw);
}

// Site-level (site admins; the same guard as PATCH /api/v1/users/{id}).
export async function setCanCreatePods(raw: unknown) {
  return runSiteCall(setCanCreatePodsCall, raw);
}

// Creating a pod (site admins and people they allowed; the guard of POST /api/v1/pods).
export async function createPod(raw: unknown) {
  return runSiteCall(createPodCall, raw);
}

// A pod's life (pod admins): start, close, archive (twins of the pod routes and the tape's events).
export async function startPod(raw: unknown) {
  return runPodAction(startPodAction, raw);
}

export async function closePod(raw: unknown) {
  return runPodAction(closePodAction, raw);
}

export async function setArchived(raw: unknown) {
  return runPodCall(setArchivedCall, raw);
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
// Budgets: an approver sets, raises or removes one (the write path checks again).
export const setBudget = actionOf(budgets.setBudget);
export const removeBudget = actionOf(budgets.removeBudget);

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
