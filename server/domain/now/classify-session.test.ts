// "Now"'s classification of one session, every state and its edges, with a fixed clock.
import { describe, expect, it } from "vitest";
import type { AgentSession } from "../state/pod-state";
import { classifySession, STALE_AFTER_MS, startOfUtcDay, TOOL_STALE_AFTER_MS } from "./classify-session";

const NOW = Date.parse("2026-11-22T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const clock = { now: NOW };

function session(over: Partial<AgentSession> = {}): AgentSession {
  return {
    seq: 1,
    at: ago(60_000),
    sessionId: "s1",
    agentId: "impl",
    via: "claude-code",
    model: null,
    cwd: null,
    ended: null,
    prompts: 0,
    toolCalls: 0,
    failedToolCalls: 0,
    compactions: 0,
    subagents: 0,
    last: { seq: 2, at: ago(30_000) },
    ...over,
  };
}
const open = { open: true, since: ago(40_000), tool: { name: "Bash", toolUseId: "t", at: ago(30_000) } };

describe("classifySession", () => {
  it("an open turn is working, since the turn began", () => {
    expect(classifySession(session({ turn: open }), null, clock)).toEqual({
      state: "working",
      since: ago(40_000),
    });
  });

  it("a closed turn is idle, since it ended; a session with no turn yet is idle since its last event", () => {
    const closed = { open: false, since: ago(35_000), tool: null };
    expect(classifySession(session({ turn: closed }), null, clock)).toEqual({
      state: "idle",
      since: ago(35_000),
    });
    expect(classifySession(session(), null, clock)).toEqual({ state: "idle", since: ago(30_000) });
  });

  it("an item to answer wins over any other state, even a stale or ended session", () => {
    const item = { at: ago(20_000) };
    expect(classifySession(session({ turn: open }), item, clock)).toEqual({
      state: "needs-you",
      since: ago(20_000),
    });
    const silent = session({ last: { seq: 2, at: ago(STALE_AFTER_MS * 3) } });
    expect(classifySession(silent, item, clock)!.state).toBe("needs-you");
    const ended = session({ ended: { seq: 3, at: ago(86_400_000 * 2), reason: null } });
    expect(classifySession(ended, item, clock)!.state).toBe("needs-you");
  });

  it("stale only past the threshold, working or not; exactly at it still counts as live", () => {
    const thinking = { ...open, tool: null };
    const at = (ms: number) => session({ turn: thinking, last: { seq: 2, at: ago(ms) } });
    expect(classifySession(at(STALE_AFTER_MS), null, clock)!.state).toBe("working");
    expect(classifySession(at(STALE_AFTER_MS + 1), null, clock)).toEqual({
      state: "stale",
      since: ago(STALE_AFTER_MS + 1),
    });
    const shorter = { now: NOW, staleAfterMs: 1000 };
    expect(classifySession(at(1001), null, shorter)!.state).toBe("stale");
  });

  it("a tool under way (a long build) may stay silent an hour before it reads as stale", () => {
    const at = (ms: number) => session({ turn: open, last: { seq: 2, at: ago(ms) } });
    expect(classifySession(at(STALE_AFTER_MS * 3), null, clock)!.state).toBe("working");
    expect(classifySession(at(TOOL_STALE_AFTER_MS), null, clock)!.state).toBe("working");
    expect(classifySession(at(TOOL_STALE_AFTER_MS + 1), null, clock)!.state).toBe("stale");
  });

  it("ended since midnight UTC is ended today; ended before it is not shown at all", () => {
    const midnight = startOfUtcDay(NOW);
    expect(new Date(midnight).toISOString()).toBe("2026-11-22T00:00:00.000Z");
    const endedAt = (t: number) =>
      session({ ended: { seq: 3, at: new Date(t).toISOString(), reason: "exit" }, turn: open });
    expect(classifySession(endedAt(midnight), null, clock)).toEqual({
      state: "ended-today",
      since: "2026-11-22T00:00:00.000Z",
    });
    expect(classifySession(endedAt(midnight - 1), null, clock)).toBeNull();
  });
});
