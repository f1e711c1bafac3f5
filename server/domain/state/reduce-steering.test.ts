// Steering on hand-made tapes: who may steer, which sessions, the cap on what waits, and a
// delivery that happens once, by the session's own agent.
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { MAX_PENDING_STEERS } from "./reduce-steering";

const steer = (steerId: string, act = "message", text = "write the tests first", sessionId = "s1") => ({
  steerId,
  sessionId,
  act,
  text,
});
const deliver = (steerId: string, hookId = "h1", via = "PostToolUse") => ({
  steerId,
  sessionId: "s1",
  via,
  hookId,
});

function running(): Tape {
  const t = Tape.team();
  t.add("session.started", "impl", { via: "claude-code" }, { sessionId: "s1" });
  return t;
}

describe("steering a session", () => {
  it("a human approver's message waits in the session, then its agent's hook takes it once", () => {
    const t = running();
    const last = t.state.sessions.s1!.last;
    t.add("session.steered", "ana", steer("m1"));
    expect(t.state.sessions.s1!.steers).toEqual([
      expect.objectContaining({ steerId: "m1", act: "message", by: "ana", delivered: null }),
    ]);
    // A person's word is not the agent's activity: the session's last touch stays the agent's.
    expect(t.state.sessions.s1!.last).toEqual(last);
    t.add("session.steer.delivered", "impl", deliver("m1"));
    expect(t.state.sessions.s1!.steers![0]!.delivered).toMatchObject({ via: "PostToolUse", hookId: "h1" });
    t.refuses("already_delivered", "session.steer.delivered", "impl", deliver("m1", "h2"));
  });

  it("an interrupt heard ends the session's turn; a message leaves it open", () => {
    const t = running();
    t.add("prompt.submitted", "impl", { chars: 5 }, { sessionId: "s1" });
    t.add("session.steered", "ana", steer("m1"));
    t.add("session.steer.delivered", "impl", deliver("m1"));
    expect(t.state.sessions.s1!.turn).toMatchObject({ open: true });
    t.add("session.steered", "ana", steer("i1", "interrupt", "stop here"));
    t.add("session.steer.delivered", "impl", deliver("i1", "h2", "PreToolUse"));
    expect(t.state.sessions.s1!.turn).toMatchObject({ open: false, tool: null });
  });

  it("only approvers steer: never an agent, never a viewer; admin automation (no member) may", () => {
    const t = running();
    t.refuses("approvers_only", "session.steered", "impl", steer("a"));
    t.refuses("approvers_only", "session.steered", "chair-1", steer("a"));
    t.refuses("approvers_only", "session.steered", "vic", steer("a"));
    t.add("session.steered", "admin", steer("a", "interrupt", "stop now"));
    expect(t.state.sessions.s1!.steers).toHaveLength(1);
  });

  it("an unknown or ended session, or a steer id used twice, is refused", () => {
    const t = running();
    t.refuses("unknown_session", "session.steered", "ana", steer("a", "message", "hi", "nope"));
    t.add("session.steered", "ana", steer("a"));
    t.refuses("steer_exists", "session.steered", "ana", steer("a", "message", "again"));
    t.add("session.ended", "impl", { reason: "exit" }, { sessionId: "s1" });
    t.refuses("session_ended", "session.steered", "ana", steer("b"));
  });

  it("past the cap a new steer is refused and none that waits is dropped", () => {
    const t = running();
    for (let i = 0; i < MAX_PENDING_STEERS; i++) t.add("session.steered", "ana", steer(`m${i}`));
    t.refuses("too_many_steers", "session.steered", "ana", steer("late"));
    expect(t.state.sessions.s1!.steers!.map((x) => x.steerId)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    // Once taken, there is room again; the delivered ones kept stay bounded.
    for (let i = 0; i < MAX_PENDING_STEERS; i++) t.add("session.steer.delivered", "impl", deliver(`m${i}`));
    for (let i = 0; i < MAX_PENDING_STEERS; i++) t.add("session.steered", "ana", steer(`n${i}`));
    t.add("session.steer.delivered", "impl", deliver("n0"));
    const kept = t.state.sessions.s1!.steers!;
    expect(kept.filter((x) => !x.delivered)).toHaveLength(MAX_PENDING_STEERS - 1);
    expect(kept.filter((x) => x.delivered).map((x) => x.steerId)).toEqual(["m1", "m2", "m3", "m4", "n0"]);
  });

  it("only the session's own agent writes a delivery, of a steer that waits there", () => {
    const t = running();
    t.add("session.steered", "ana", steer("m1"));
    t.refuses("session_not_yours", "session.steer.delivered", "rev", deliver("m1"));
    t.refuses("unknown_steer", "session.steer.delivered", "impl", deliver("other"));
  });
});

describe("a Stop held for a person's Resume", () => {
  const until = "2026-11-26T12:00:00.000Z";
  it("ends the turn and says until when the session waits; only its own agent says so", () => {
    const t = running();
    t.add("prompt.submitted", "impl", { chars: 5 }, { sessionId: "s1" });
    t.refuses("session_not_yours", "session.idle.held", "ana", { sessionId: "s1", until });
    t.add("session.idle.held", "impl", { sessionId: "s1", until }, { sessionId: "s1" });
    expect(t.state.sessions.s1!.turn).toMatchObject({ open: false, tool: null });
    expect(t.state.sessions.s1!.idleHold).toMatchObject({ until });
    t.refuses("unknown_session", "session.idle.held", "impl", { sessionId: "s9", until });
  });

  it("is an inbox item until a person's word answers it, or the agent works again", () => {
    const t = running();
    t.add("session.idle.held", "impl", { sessionId: "s1", until }, { sessionId: "s1" });
    expect(t.state.inbox["idle:s1"]).toMatchObject({ kind: "idle", subject: { kind: "session", id: "s1" } });
    t.add("session.steered", "ana", steer("r1", "resume", "Carry on."));
    expect(t.state.inbox["idle:s1"]).toBeUndefined();
    t.add("session.steer.delivered", "impl", deliver("r1", "h9", "Stop"));
    expect(t.state.sessions.s1!.idleHold).toBeUndefined();
    t.add("session.idle.held", "impl", { sessionId: "s1", until }, { sessionId: "s1" });
    expect(t.state.inbox["idle:s1"]).toBeDefined();
    t.add("prompt.submitted", "impl", { chars: 5 }, { sessionId: "s1" });
    expect(t.state.inbox["idle:s1"]).toBeUndefined();
  });
});
