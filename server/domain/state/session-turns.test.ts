// A session's turn on hand-made tapes: a prompt opens it, tool calls show what runs, the agent's
// report (what a Stop hook writes) or the session's end closes it.
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";

const inSession = { sessionId: "s1" };
const call = (t: Tape, phase: string, toolUseId: string, tool = "Bash") =>
  t.add("tool.call", "impl", { toolUseId, tool, phase, input: "ls" }, inSession);

describe("a session's turn", () => {
  it("opens on a prompt, shows the call under way, and closes on the agent's report", () => {
    const t = Tape.team();
    t.add("session.started", "impl", { via: "claude-code" }, inSession);
    expect(t.state.sessions.s1!.turn).toMatchObject({ open: false, tool: null });
    t.now = "2026-11-22T01:00:00.000Z";
    t.add("prompt.submitted", "impl", { chars: 5 }, inSession);
    expect(t.state.sessions.s1!.turn).toEqual({ open: true, since: "2026-11-22T01:00:00.000Z", tool: null });
    t.now = "2026-11-22T01:00:05.000Z";
    call(t, "started", "tu1");
    expect(t.state.sessions.s1!.turn).toEqual({
      open: true,
      since: "2026-11-22T01:00:00.000Z",
      tool: { name: "Bash", toolUseId: "tu1", at: "2026-11-22T01:00:05.000Z" },
    });
    call(t, "succeeded", "tu1");
    expect(t.state.sessions.s1!.turn).toMatchObject({
      open: true,
      since: "2026-11-22T01:00:00.000Z",
      tool: null,
    });
    t.now = "2026-11-22T01:02:00.000Z";
    t.add("checkpoint", "impl", { completed: ["a"], next: [], blocked: [] }, inSession);
    expect(t.state.sessions.s1!.turn).toEqual({ open: false, since: "2026-11-22T01:02:00.000Z", tool: null });
  });

  it("a call seen without its prompt (hooks installed mid-turn) opens the turn; another call's end keeps the one shown", () => {
    const t = Tape.team();
    call(t, "started", "tu1", "Read");
    call(t, "started", "tu2", "Bash");
    call(t, "failed", "tu1", "Read");
    expect(t.state.sessions.s1!.turn).toMatchObject({ open: true, tool: { name: "Bash", toolUseId: "tu2" } });
  });

  it("a call its gate denied never runs: the turn goes on, showing the call that does", () => {
    const t = Tape.team();
    call(t, "started", "tu1", "Read");
    const gate = { decision: "deny", by: "person", reason: "stop" };
    t.add(
      "tool.call",
      "impl",
      { toolUseId: "tu2", tool: "Bash", phase: "started", input: "rm", gate },
      inSession,
    );
    expect(t.state.sessions.s1!.turn).toMatchObject({ open: true, tool: { name: "Read", toolUseId: "tu1" } });
  });

  it("a status note or the session's end closes the turn; another member's note in it does not", () => {
    const t = Tape.team();
    t.add("prompt.submitted", "impl", { chars: 1 }, inSession);
    t.add("note", "rev", { kind: "STATUS", text: "looking" }, inSession);
    expect(t.state.sessions.s1!.turn!.open).toBe(true);
    t.add("note", "impl", { kind: "STATUS", text: "done" }, inSession);
    expect(t.state.sessions.s1!.turn!.open).toBe(false);
    t.add("prompt.submitted", "impl", { chars: 1 }, inSession);
    t.add("session.ended", "impl", {}, inSession);
    expect(t.state.sessions.s1!.turn).toMatchObject({ open: false, tool: null });
  });
});
