// Which session an inbox item belongs to, on a hand-made tape: a held call to its own session, an
// escalation to its agent's latest open session, a plan's item to none.
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { itemsBySession } from "./attribute-items";

describe("itemsBySession", () => {
  it("a held call goes to its session, an escalation to the agent's latest open one", () => {
    const t = Tape.team();
    t.add("session.started", "impl", { via: "claude-code" }, { sessionId: "a" });
    t.add("session.started", "impl", { via: "claude-code" }, { sessionId: "b" });
    t.add("session.started", "impl", { via: "claude-code" }, { sessionId: "c" });
    t.add("session.ended", "impl", {}, { sessionId: "c" });
    t.add("agent.policy.set", "admin", {
      rules: [{ id: "push", tool: "Bash", input: "git push*", action: "ask" }],
    });
    t.add(
      "tool.approval.requested",
      "impl",
      {
        requestId: "r1",
        toolUseId: "tu1",
        tool: "Bash",
        input: JSON.stringify({ command: "git push" }),
        context: [],
        deadline: { inMinutes: 5, then: "answer", answer: "deny" },
      },
      { sessionId: "a" },
    );
    t.add("escalation", "impl", {
      escalationId: "e1",
      kind: "intent",
      question: "Which one?",
      options: ["x", "y"],
    });
    const items = Object.values(t.state.inbox);
    expect(items).toHaveLength(2);
    const by = itemsBySession(t.state, items);
    expect(by.get("a")!.map((i) => i.kind)).toEqual(["tool_approval"]);
    expect(by.get("b")!.map((i) => i.kind)).toEqual(["escalation"]);
    expect(by.has("c")).toBe(false);
  });

  it("an agent with no session keeps its items out of every session", () => {
    const t = Tape.team();
    t.add("escalation", "impl", { escalationId: "e1", kind: "intent", question: "?", options: ["x"] });
    expect(itemsBySession(t.state, Object.values(t.state.inbox)).size).toBe(0);
  });
});
