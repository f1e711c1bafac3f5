// Steering a running agent session from the control room or the API (approvers): a message, an
// interrupt with its reason, or a word to an idle session. It waits in the session until the
// agent's next hook delivers it through that agent's own mechanism (deliver-steers.ts).
import { AppError } from "../domain/errors";
import { defineOperation } from "../operations/operation";
import { asTheApiWould } from "../pods/perform-pod-action";
import { ZSteerSessionInput, ZSteerSessionOutput } from "../wire/steer";
import { steerSessionAction } from "./steer-session";

export const sessionSteerOperations = {
  steerSession: defineOperation({
    name: "steerSession",
    summary:
      "Tells a running agent session something (approvers): `act` message, interrupt (`text` is the reason) or " +
      "resume; `session.steered` on the tape, delivered at the agent's next hook (`session.steer.delivered`). " +
      "Idempotent by `steerId`; at most 5 wait per session (409 `too_many_steers`).",
    tag: "Steering",
    input: ZSteerSessionInput,
    output: ZSteerSessionOutput,
    guard: { pod: steerSessionAction.need },
    http: { method: "POST", path: "/api/v1/pods/{podId}/sessions/{sessionId}/steer", status: 201 },
    action: true,

    run: async ({ app, identity, actor, podState }, a) => {
      const state = podState ?? (await app.store.readState(a.podId));
      // A site administrator sees every pod, but speaks to its agents only as one of its people.
      if (identity.kind === "user" && state && !Object.hasOwn(state.members, identity.email))
        throw new AppError(
          403,
          "not_a_member",
          "you are a site administrator but not one of this pod's people: add yourself as an approver to steer its agents",
        );
      const events = steerSessionAction.events(a, actor).map(asTheApiWould);
      const [ack] = await app.append(a.podId, events, identity);
      return { steerId: a.steerId, seq: ack!.seq };
    },
  }),
};
