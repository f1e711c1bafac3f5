// The one script the steering tests play with each real agent program: the model runs three
// commands, the first two held by the pod's rule. While the first waits, a person sends a message;
// while the second waits, they interrupt; then they allow each. The message must reach the model
// in the request right after the first call, and the third command must never run.
import { expect } from "vitest";
import { sessionSteerOperations } from "../steer/steer-operations";
import { performOperation } from "../web/perform-operation";
import { answerHeldCalls, PIA, tapeOf } from "./real-cli";
import type { TestServer } from "./test-server";

export const STEER_MESSAGE = "PODWATCH-STEER-MESSAGE write notes.md as well";
export const STEER_STOP = "PODWATCH-STEER-STOP that is enough";
/** The model's plan: two held commands, then one the interrupt must keep from running. */
export const STEER_STEPS = ["touch hold-1.txt", "touch hold-2.txt", "touch after-interrupt.txt"];

/** The pod's rule holding the two first commands, for the agent's name of its shell tool. */
export const holdingPolicy = (tool: string) => ({
  rules: [{ id: "hold", tool, input: "touch hold-*", action: "ask" }],
  ask: { minutes: 10, then: "deny" },
});

/** Plays the person's side until `until` settles: the message at the first held call, the interrupt at the second. */
export async function steerWhileHeld(s: TestServer, podId: string, until: Promise<unknown>) {
  const acts = [
    { act: "message" as const, text: STEER_MESSAGE },
    { act: "interrupt" as const, text: STEER_STOP },
  ];
  return answerHeldCalls(s, podId, until, async (e, nth) => {
    const step = acts[nth - 1];
    if (step) {
      const sent = await performOperation(s.app, PIA, sessionSteerOperations.steerSession, {
        podId,
        sessionId: e.meta!.sessionId!,
        steerId: `steer-${nth}`,
        ...step,
      });
      expect(sent.ok, JSON.stringify(sent)).toBe(true);
    }
    return { decision: "allow" };
  });
}

/** The deliveries on the tape: who wrote each, which steer, at which hook (in Claude Code's names). */
export const deliveries = async (s: TestServer, podId: string) =>
  (await tapeOf(s, podId))
    .filter((e) => e.type === "session.steer.delivered")
    .map((e) => [e.actor, e.body.steerId, e.body.via]);
