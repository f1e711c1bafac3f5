"use server";
import { appContext } from "../app-context";
import { performAcceptInvite } from "./people-actions";
import { runSiteCall } from "./run-site-action";
import { createPodCall } from "./site-actions";
import { closePodAction, setArchivedCall, startPodAction } from "./pod-life-actions";
import { runPodAction, runPodCall } from "./run-action";
import { webhookOperations as webhooks } from "../webhooks/webhook-operations";
import { shareLinkOperations as shareLinks } from "../access/share-link-operations";
import { agentTokenOperations as agentTokens } from "../access/agent-token-operations";
import { peopleOperations as people } from "../access/people-operations";
import { memberOperations as members } from "../access/member-operations";
import { notifyOperations as notify } from "../notify/notify-operations";
import { actionOf } from "./operation-action";
import { answerEscalationAction, answerToolApprovalAction, decideAction } from "../pods/inbox-answer-actions";
import { setBudgetCall, setToolPolicyAction } from "./pod-actions";
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

// Budgets: an approver sets, raises or removes one (the domain checks again).
export async function setBudget(raw: unknown) {
  return runPodCall(setBudgetCall, raw);
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

// People (site admins): invites and resets, whose link is in this caller's result only; who may create pods.
export const invitePerson = actionOf(people.invitePerson);
export const resetPassword = actionOf(people.resetPassword);
export const setCanCreatePods = actionOf(people.setCanCreatePods);
// Anyone signed in, for themselves (Better Auth checks the current password and ends their other sessions).
export const changePassword = actionOf(people.changePassword);
// A person's pod access (pod admins). Someone without an account cannot be added: a site admin may invite them.
export const addPersonToPod = actionOf(members.addPersonToPod);
export const setPersonAccess = actionOf(members.setPersonAccess);
export const removePersonFromPod = actionOf(members.removePersonFromPod);

/** The invite link's page: the token is the credential. The browser signs in with the new password after. */
export async function acceptInvite(raw: unknown) {
  return performAcceptInvite(appContext(), raw);
}

// A person's notifications, for themselves: their devices (named after the request's user agent), their preferences.
export const readNotifications = actionOf(notify.readNotifications);
export const addPushDevice = actionOf(notify.addPushDevice);
export const removePushDevice = actionOf(notify.removePushDevice);
export const saveNotificationPreferences = actionOf(notify.saveNotificationPreferences);
