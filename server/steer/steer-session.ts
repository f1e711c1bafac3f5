// A person's steering act as the events it appends: one `session.steered`, under an id derived
// from the pod and the caller's steer id, so a retry (a double click, a lost answer, a
// notification's button pressed twice) is stored once. The reducer decides who may steer what
// (reduce-steering.ts); the control room, the API and a notification's buttons append the same.
import { uuidFromKey } from "../wire/hash";
import { ZSteerSessionInput } from "../wire/steer";
import type { PodAction } from "../pods/perform-pod-action";

export const steerEventId = (podId: string, steerId: string) =>
  uuidFromKey(`session.steered|${podId}|${steerId}`);

export const steerSessionAction: PodAction<typeof ZSteerSessionInput> = {
  schema: ZSteerSessionInput,
  need: "approver",
  events: (a, actor) => [
    {
      id: steerEventId(a.podId, a.steerId),
      type: "session.steered",
      actor,
      body: { steerId: a.steerId, sessionId: a.sessionId, act: a.act, text: a.text },
    },
  ],
};
