// `podwatch handoff`: the turn to another member (docs/protocol/plan-and-handoffs.md#handoffs).
import { UsageError } from "../../sdk/errors";
import { OPTIONS, recorded, str, type Command } from "../command";

export const handoff: Command = {
  name: "handoff",
  summary: "Hand the turn to another member (a handoff)",
  options: {
    to: { type: "string", description: "the member who acts next", value: "MEMBER" },
    reason: OPTIONS.reason,
  },
  examples: ['podwatch handoff --to reviewer-1 --reason "Ready for review"'],
  run: async ({ values: v, agent }) => {
    if (!str(v.to) || !str(v.reason)) throw new UsageError("handoff needs --to and --reason");
    return recorded(`handoff to ${v.to}`, await agent().handoff(str(v.to)!, str(v.reason)!));
  },
};
