// A pod's life from the control room (pod admins): the same use-cases and the
// same access as the pod routes.
import type { TEvent } from "../wire/events";
import { ZClosePodInput, ZPodInput } from "../wire/actions";
import { definePodAction } from "../pods/perform-pod-action";

export const startPodAction = definePodAction({
  schema: ZPodInput,
  need: "admin" as const,
  events: (_a, actor): TEvent[] => [{ type: "pod.started", actor, body: {} }],
});

export const closePodAction = definePodAction({
  schema: ZClosePodInput,
  need: "admin" as const,
  events: (a, actor): TEvent[] => [{ type: "pod.closed", actor, body: a.reason ? { reason: a.reason } : {} }],
});
