"use server";
// Decisions and answers from the control room. Each goes through
// runPodAction: authenticated, parsed, checked on the server, then appended
// to the tape as the signed-in person (the domain checks the rest).
import { runPodAction } from "@/server/web/run-action";
import { answerEscalationAction, decideAction } from "@/server/web/pod-actions";

export async function decide(raw: unknown) {
  return runPodAction(decideAction, raw);
}

export async function answerEscalation(raw: unknown) {
  return runPodAction(answerEscalationAction, raw);
}
