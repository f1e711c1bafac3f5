// Agent sessions on hand-made tapes: a subagent's session under its parent, and which session
// leaves when an agent has too many.
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { MAX_SESSIONS } from "./reduce-sessions";

const start = (t: Tape, sessionId: string, body: Record<string, unknown> = {}) =>
  t.add("session.started", "impl", { via: "claude-code", ...body }, { sessionId });

describe("sessions", () => {
  it("a subagent's session knows its parent and its type", () => {
    const t = Tape.team();
    start(t, "main");
    start(t, "main/a1", { source: "subagent", parentSessionId: "main", agentType: "Explore" });
    expect(t.state.sessions["main/a1"]).toMatchObject({ parentSessionId: "main", agentType: "Explore" });
    expect(t.state.sessions.main!.parentSessionId).toBeUndefined();
  });

  it("past the bound the least recently active session leaves, but never the parent of the one arriving", () => {
    const t = Tape.team();
    start(t, "main");
    for (let i = 1; i < MAX_SESSIONS; i++) start(t, `other-${i}`);
    // The parent is now the least recently active; its subagent arrives past the bound.
    start(t, "main/a1", { source: "subagent", parentSessionId: "main", agentType: "Explore" });
    expect(Object.keys(t.state.sessions)).toHaveLength(MAX_SESSIONS);
    expect(t.state.sessions.main).toBeDefined();
    expect(t.state.sessions["other-1"]).toBeUndefined();
    // Any other newcomer pushes out the least recently active, as before.
    start(t, "unrelated");
    expect(t.state.sessions.main).toBeUndefined();
  });
});
