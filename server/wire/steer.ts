// POST /api/v1/pods/{podId}/sessions/{sessionId}/steer: a person's word to a running agent session.
import { z } from "zod";
import { ZSessionSteered } from "../domain/events/agent-events";

const body = ZSessionSteered.shape.body.shape;

/** `steerId`: the caller's own id for this act, so sending it again (a retry) stores it once. */
export const ZSteerSessionInput = z.object({
  podId: z.string().min(1),
  sessionId: body.sessionId,
  steerId: body.steerId,
  act: body.act,
  text: body.text,
});
export type SteerSessionInput = z.input<typeof ZSteerSessionInput>;

export const ZSteerSessionOutput = z.object({ steerId: z.string(), seq: z.number().int() });
