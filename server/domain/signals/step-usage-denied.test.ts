// A tool call the gate denied did not run: it is no call in an agent's usage (per tool, per run,
// per day), as it is none in the meters a tool_calls budget counts.
import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import type { AgentSignals } from "./signal-types";

const sig = (t: Tape, id: string): AgentSignals => t.state.signals.agents[id]!;

describe("usage signals of gated calls", () => {
  it("counts a started call the gate allowed, not one it denied", () => {
    const t = Tape.team();
    t.now = "2026-11-22T10:00:00.000Z";
    const call = (id: string, gate?: object) =>
      t.add(
        "tool.call",
        "impl",
        { toolUseId: id, tool: "Bash", phase: "started", ...(gate ? { gate } : {}) },
        { sessionId: "s1" },
      );
    call("u1");
    call("u2", { decision: "allow", by: "person", requestId: "r1" });
    call("u3", { decision: "deny", by: "policy", ruleId: "no-rm" });
    call("u4", { decision: "deny", by: "person", requestId: "r2", reason: "not now" });
    const a = sig(t, "impl");
    expect(a.usage.tools["Bash"]).toEqual({ calls: 2, failed: 0 });
    expect(a.runs["s1"]!.toolCalls).toBe(2);
    expect(a.days["2026-11-22"]!.toolCalls).toBe(2);
    expect(a.runs["s1"]!.lastAt).toBe("2026-11-22T10:00:00.000Z"); // the session was still seen
  });

  it("a denied call of a tool not seen before names no tool", () => {
    const t = Tape.team();
    t.add("tool.call", "impl", { toolUseId: "u1", tool: "Read", phase: "started" });
    t.add("tool.call", "impl", {
      toolUseId: "u2",
      tool: "WebFetch",
      phase: "started",
      gate: { decision: "deny", by: "deadline", requestId: "r1" },
    });
    expect(sig(t, "impl").usage.tools).toEqual({ Read: { calls: 1, failed: 0 } });
  });
});
