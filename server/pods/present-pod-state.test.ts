import { describe, expect, it } from "vitest";
import { emptyPodState, type AgentSession, type Usage } from "../domain/state/pod-state";
import { presentPodState } from "./present-pod-state";

const session = (sessionId: string, lastSeq: number): AgentSession => ({
  seq: 1,
  at: "2025-01-01T10:00:00.000Z",
  sessionId,
  agentId: "claude",
  via: "claude-code",
  model: null,
  cwd: null,
  ended: null,
  prompts: 0,
  toolCalls: 0,
  failedToolCalls: 0,
  compactions: 0,
  subagents: 0,
  last: { seq: lastSeq, at: "2025-01-01T10:05:00.000Z" },
});
const usage = (inputTokens: number): Usage => ({
  inputTokens,
  outputTokens: 1,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0.01,
  reports: 1,
});

describe("presentPodState: agent sessions", () => {
  it("lists sessions most recently active first and usage as one row per agent and model", () => {
    const s = {
      ...emptyPodState(),
      sessions: { a: session("a", 3), b: session("b", 9), c: session("c", 5) },
      usage: { claude: { opus: usage(10), sonnet: usage(20) }, otel: { "gpt-4o": usage(30) } },
    };
    const view = presentPodState(s);
    expect(view.sessions.map((x) => x.sessionId)).toEqual(["b", "c", "a"]);
    expect(view.usage.map((u) => [u.agentId, u.model, u.inputTokens])).toEqual([
      ["claude", "opus", 10],
      ["claude", "sonnet", 20],
      ["otel", "gpt-4o", 30],
    ]);
  });
});
