// An escalation that could not be sent names its id, which the server may have stored: the caller
// can wait on it (podwatch wait) rather than ask again. Against a port nothing listens on.
import { describe, expect, it } from "vitest";
import { PodwatchClient } from "./client";
import { PodAgent } from "./pod-agent";

describe("sendEscalation", () => {
  it("a try that still fails says which escalation may have been recorded", async () => {
    const agent = new PodAgent(
      new PodwatchClient({ url: "http://127.0.0.1:9", token: "pwa_x", podId: "p", actor: "impl" }),
    );
    const sent = agent.escalate(
      { question: "Ship?", kind: "intent", escalationId: "esc-named" },
      {},
      { seconds: 0 },
    );
    await expect(sent).rejects.toMatchObject({
      status: 0,
      code: "unreachable",
      message: expect.stringContaining(
        "escalation esc-named may have been recorded: wait on it by its id, e.g. podwatch wait esc-named",
      ),
    });
  });
});
