// `podwatch whoami`: who the token speaks for.
import type { Command } from "../command";

export const whoami: Command = {
  name: "whoami",
  summary: "Show who the token speaks for",
  run: async ({ agent }) => {
    const me = await agent().client.whoami();
    return { text: me.kind === "agent" ? `${me.memberId} in pod ${me.podId}` : me.kind, json: me };
  },
};
