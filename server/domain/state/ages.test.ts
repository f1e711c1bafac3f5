// Ages (inbox age, last checkpoint, staleness) are the server's: an agent's
// backdated or future `ts` is kept on the tape as what it said, never used as when.
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";

const LONG_AGO = "2001-01-01T00:00:00.000Z";
const FUTURE = "2099-01-01T00:00:00.000Z";

describe("ages follow the server's receivedAt", () => {
  it("a backdated checkpoint does not make the pod look stale, a future one does not make it look fresh", () => {
    const t = Tape.team();
    let s = t.add("checkpoint", "impl", { completed: ["a"], next: [], blocked: [] }, { ts: LONG_AGO });
    expect(s.lastCheckpoint?.at).toMatch(/^2026-11-22T/);
    s = t.add("checkpoint", "impl", { completed: ["b"], next: [], blocked: [] }, { ts: FUTURE });
    expect(s.lastCheckpoint?.at).toMatch(/^2026-11-22T/);
  });

  it("an escalation's inbox age starts when the server received it", () => {
    const t = Tape.team();
    const s = t.add(
      "escalation",
      "impl",
      { escalationId: "e1", kind: "intent", question: "which db?" },
      { ts: LONG_AGO },
    );
    const item = Object.values(s.inbox).find((i) => i.kind === "escalation")!;
    expect(item.at).toMatch(/^2026-11-22T/);
    expect(s.escalations.e1!.at).toMatch(/^2026-11-22T/);
  });
});
