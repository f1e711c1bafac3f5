// What a hook carries of a session's steers, and in which words each agent hears them. Pure.
import { describe, expect, it } from "vitest";
import type { AgentSession, Steer } from "../domain/state/pod-state";
import { steerOutput, steersFor, steerWords } from "./steer-answer";

const steer = (steerId: string, act: Steer["act"], delivered: Steer["delivered"] = null): Steer => ({
  seq: 1,
  at: "2026-11-26T00:00:00.000Z",
  steerId,
  act,
  text: `text of ${steerId}`,
  by: "pia@example.com",
  delivered,
});
const session = (steers: Steer[]) => ({ steers }) as AgentSession;

describe("what a hook carries", () => {
  it("messages ride the hooks that add to what the model reads, never a tool call about to run", () => {
    const s = session([steer("m1", "message"), steer("m2", "resume")]);
    for (const event of ["UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop"])
      expect(steersFor(s, event, "h", "claude-code").map((x) => x.steerId)).toEqual(["m1", "m2"]);
    for (const event of ["PreToolUse", "PermissionRequest", "Notification", "SessionEnd"])
      expect(steersFor(s, event, "h", "claude-code")).toEqual([]);
  });

  it("a pending interrupt goes first and alone, at any hook the agent waits on", () => {
    const s = session([steer("m1", "message"), steer("i1", "interrupt")]);
    expect(steersFor(s, "PreToolUse", "h", "claude-code").map((x) => x.steerId)).toEqual(["i1"]);
    expect(steersFor(s, "Stop", "h", "claude-code").map((x) => x.steerId)).toEqual(["i1"]);
    expect(steersFor(s, "Notification", "h", "claude-code")).toEqual([]);
  });

  it("Codex: an interrupt is delivered only where the turn ends (Stop) or cannot start (a prompt)", () => {
    const s = session([steer("m1", "message"), steer("i1", "interrupt")]);
    // Codex runs the next call after any answer at a tool's end, and goes on after a denied call:
    // there the interrupt stays pending (and denies the call, heldInterrupt).
    for (const event of [
      "PostToolUse",
      "PostToolUseFailure",
      "PreToolUse",
      "PermissionRequest",
      "Notification",
    ])
      expect(steersFor(s, event, "h", "codex")).toEqual([]);
    for (const event of ["UserPromptSubmit", "Stop"])
      expect(steersFor(s, event, "h", "codex").map((x) => x.steerId)).toEqual(["i1"]);
    // A message alone rides Codex's PostToolUse as context, as for the others.
    expect(
      steersFor(session([steer("m1", "message")]), "PostToolUse", "h", "codex").map((x) => x.steerId),
    ).toEqual(["m1"]);
  });

  it("a retried hook carries what it carried, and nothing new", () => {
    const done = { seq: 2, at: "2026-11-26T00:00:01.000Z", via: "PostToolUse", hookId: "h1" };
    const s = session([steer("m1", "message", done), steer("m2", "message")]);
    expect(steersFor(s, "PostToolUse", "h1", "claude-code").map((x) => x.steerId)).toEqual(["m1"]);
    expect(steersFor(s, "PostToolUse", "h2", "claude-code").map((x) => x.steerId)).toEqual(["m2"]);
    expect(steersFor(undefined, "PostToolUse", "h1", "claude-code")).toEqual([]);
  });
});

describe("in each agent's words", () => {
  const words = steerWords([steer("m1", "message")], () => "Pia");
  it("says whose words they are", () => {
    expect(words).toBe("Pia says, from podwatch: text of m1");
    expect(steerWords([steer("i1", "interrupt")], () => "Pia")).toBe(
      "Pia interrupted this turn from podwatch: text of i1",
    );
  });
  it("a message: context, or a Stop blocked with it as the reason to go on", () => {
    const m = [steer("m1", "message")];
    expect(steerOutput("claude-code", "PostToolUse", m, words)).toEqual({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: words },
    });
    expect(steerOutput("codex", "Stop", m, words)).toEqual({ decision: "block", reason: words });
    expect(steerOutput("claude-code", "PreToolUse", [], words)).toEqual({});
  });
  it("an interrupt: the turn ends; a tool call is denied first, and Codex gets the deny alone", () => {
    const i = [steer("i1", "interrupt")];
    const deny = { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: words };
    expect(steerOutput("claude-code", "PreToolUse", i, words)).toEqual({
      continue: false,
      stopReason: words,
      hookSpecificOutput: deny,
    });
    expect(steerOutput("codex", "PreToolUse", i, words)).toEqual({ hookSpecificOutput: deny });
    expect(steerOutput("claude-code", "PermissionRequest", i, words)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: words, interrupt: true },
      },
    });
    expect(steerOutput("gemini-cli", "Stop", i, words)).toEqual({ continue: false, stopReason: words });
  });
});
