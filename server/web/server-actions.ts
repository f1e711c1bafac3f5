"use server";
import { appContext } from "../app-context";
import { performAcceptInvite } from "./people-actions";
import { webhookOperations as webhooks } from "../webhooks/webhook-operations";
import { shareLinkOperations as shareLinks } from "../access/share-link-operations";
import { agentTokenOperations as agentTokens } from "../access/agent-token-operations";
import { peopleOperations as people } from "../access/people-operations";
import { memberOperations as members } from "../access/member-operations";
import { notifyOperations as notify } from "../notify/notify-operations";
import { podOperations as pods } from "../pods/pod-operations";
import { inboxOperations as inbox } from "../pods/inbox-operations";
import { budgetOperations as budgets } from "../budgets/budget-operations";
import { actionOf } from "./operation-action";
import { steerOperations as steer } from "../pods/steer-operations";
import { sessionSteerOperations as sessionSteer } from "../steer/steer-operations";

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
// A person's word to a running agent session (approvers): delivered at the agent's next hook.
export const steerSession = actionOf(sessionSteer.steerSession);
// Budgets: an approver sets, raises or removes one (the write path checks again).
export const setBudget = actionOf(budgets.setBudget);
export const removeBudget = actionOf(budgets.removeBudget);

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
