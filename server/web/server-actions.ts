"use server";
// Decisions and answers from the control room. Each goes through
// runPodAction: authenticated, parsed, checked on the server, then appended
// to the tape as the signed-in person (the domain checks the rest).
import { runSiteCall } from "./run-site-action";
import { setCanCreatePodsCall } from "./site-actions";
import { runPodAction, runPodCall } from "./run-action";
import { addAgentCall, createAgentTokenCall, revokeAgentTokenCall, rotateAgentTokenCall } from "./pod-actions";
import { addTaskAction, answerEscalationAction, assignRoleAction, decideAction, handOffAction, rotateRoleAction, setPausedAction, splitTaskAction } from "./pod-actions";

export async function decide(raw: unknown) {
  return runPodAction(decideAction, raw);
}

export async function answerEscalation(raw: unknown) {
  return runPodAction(answerEscalationAction, raw);
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

// Agents and their tokens (pod admins): a new token is in this caller's result only, never stored or logged.
export async function addAgent(raw: unknown) {
  return runPodCall(addAgentCall, raw);
}

export async function createAgentToken(raw: unknown) {
  return runPodCall(createAgentTokenCall, raw);
}

export async function revokeAgentToken(raw: unknown) {
  return runPodCall(revokeAgentTokenCall, raw);
}

export async function rotateAgentToken(raw: unknown) {
  return runPodCall(rotateAgentTokenCall, raw);
}

// Site-level (site admins; the same guard as PATCH /api/v1/users/{id}).
export async function setCanCreatePods(raw: unknown) {
  return runSiteCall(setCanCreatePodsCall, raw);
}
